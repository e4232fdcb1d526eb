import { AbortedError } from '../errors';
import { assertionWeakenings } from './assertion-strength';
import type { Candidate, CandidateContext } from './candidates';
import { bugOutcome, builtEvidence, describeTarget, nothingDoesIt, repairSummary } from './evidence';
import { atFailedStep } from './explore';
import { askProposer, type ModelProposal } from './proposer-check';
import { type Proof, prove } from './prove';
import type { RepairOptions, RepairOutcome, RepairRequest } from './repair-types';
import { judgeRepairable, parses, type RepairTarget } from './repairable';
import { revealTriggers, surveyRevealed, type Trigger } from './reveal';
import { rewriteCase } from './rewrite-step';
import { type Survey, survey } from './survey';

/**
 * A failed case of a saved suite in, a verdict out (docs/REPAIRS.md): a proved **repair**, a repair
 * that **weakens** an assertion, or a **bug**. Never a repair that was not run:
 * 1. Which failures: `repairable.ts` (a target not found, a changed text without digits that the case
 *    did not type); every other failure is a bug at once, with no browser.
 * 2. Explore: the steps before the failed one run again in a fresh browser (`explore.ts`); if they
 *    fail now, something earlier broke: a bug.
 * 3. The LLM engine's proposal first, when there is a proposer (`proposer-check.ts`: refused when it
 *    names an element not on the page, and the built-in rules take over).
 * 4. The built-in rules: the elements a person would take for the target (`candidates.ts`), then the
 *    target behind one click (`reveal.ts`, each try on a fresh page).
 * 5. Each proposal is proved (`prove.ts`: the whole repaired case must pass in a fresh browser, at
 *    most `maxProofs` proofs), the first that passes wins, and its checks are compared with the case's
 *    (`assertionWeakenings`): weaker is `weakens`, never a plain repair. A repair rejected before for
 *    the same page state is not tried again. Nothing passing: a bug, saying what was looked for.
 */
export async function proposeRepair(request: RepairRequest, options: RepairOptions): Promise<RepairOutcome> {
  const judged = judgeRepairable(request);
  if (!judged.repairable) return bugOutcome(judged.stepIndex, judged.summary, judged.signals, null);
  return new RepairAttempt(request, options, judged.stepIndex, judged.target).run();
}

const DEFAULT_MAX_PROOFS = 3;
/** Candidates proved per revealed page (the best ones; the rest of the budget for other reveals). */
const PROOFS_PER_REVEAL = 2;

class RepairAttempt {
  private readonly steps: string[];
  private readonly lastRole: string | null;
  private readonly context: CandidateContext;
  private proofsLeft: number;
  private pageState: string | null = null;
  private readonly tried: string[] = [];
  private readonly signals: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly request: RepairRequest,
    private readonly options: RepairOptions,
    private readonly stepIndex: number,
    private readonly target: RepairTarget,
  ) {
    this.steps = request.testCase.steps;
    this.proofsLeft = options.maxProofs ?? DEFAULT_MAX_PROOFS;
    const selector = request.lastPassing?.steps.find((s) => s.index === stepIndex)?.selector ?? null;
    this.lastRole = selector ? ([...selector.matchAll(/role=(\w+)/g)].pop()?.[1] ?? null) : null;
    const step = parses(this.steps[stepIndex]);
    const isCheck = step ? step.verb.startsWith('verify') || step.verb === 'waitForText' : true;
    const laterCheck = this.steps.slice(stepIndex + 1).some((line) => /^\s*(verify|wait for)\b/i.test(line));
    this.context = {
      failedIndex: stepIndex,
      stepCount: this.steps.length,
      lastRole: this.lastRole,
      nameRequired: isCheck || !laterCheck,
    };
  }

  async run(): Promise<RepairOutcome> {
    const { options } = this;
    const explored = await atFailedStep(this.request.testCase, this.stepIndex, options, async (session) => {
      const look = await survey(session, {
        steps: this.steps,
        target: this.target,
        context: this.context,
        signal: options.signal,
      });
      const model: ModelProposal = options.proposer
        ? await askProposer(options.proposer, session, this.proposerInput(), options.signal)
        : null;
      return { look, model };
    });
    if (options.signal?.aborted) throw new AbortedError();
    if (!explored.ok) {
      return bugOutcome(
        this.stepIndex,
        `The steps before step ${this.stepIndex + 1} fail now, so something earlier broke: ${explored.error}`,
        ['earlier steps fail'],
        null,
      );
    }
    const { look, model } = explored.value;
    this.pageState = look.pageState;
    if (model && 'refused' in model) this.signals.push(`model refused: ${model.refused}`);
    else if (model) {
      const won = await this.tryModel(model);
      if (won) return won;
    }
    return (await this.tryBuiltIn(look)) ?? this.nothingFound(look);
  }

  private proposerInput() {
    const selector =
      this.request.lastPassing?.steps.find((s) => s.index === this.stepIndex)?.selector ?? null;
    return {
      steps: this.steps,
      failedIndex: this.stepIndex,
      error: this.request.error,
      lastSelector: selector,
    };
  }

  private async tryBuiltIn(look: Survey): Promise<RepairOutcome | null> {
    const regionFound = look.page.region;
    for (const candidate of look.candidates) {
      if (this.proofsLeft <= 0) return null;
      const won = await this.tryCandidate(candidate, null, regionFound);
      if (won) return won;
    }
    if (this.target.want === 'text' || this.target.want === 'title' || this.target.want === 'url')
      return null;
    for (const trigger of revealTriggers(look.page, this.context)) {
      if (this.proofsLeft <= 0) return null;
      const input = { target: this.target, context: this.context, shown: look.page };
      const revealed = await surveyRevealed(this.request.testCase, trigger, input, this.options);
      if (!revealed.ok || !revealed.value) continue;
      for (const candidate of revealed.value.candidates.slice(0, PROOFS_PER_REVEAL)) {
        if (this.proofsLeft <= 0) return null;
        const won = await this.tryCandidate(candidate, trigger, revealed.value.page.region);
        if (won) return won;
      }
    }
    return null;
  }

  private async tryCandidate(
    candidate: Candidate,
    trigger: Trigger | null,
    regionFound: boolean,
  ): Promise<RepairOutcome | null> {
    const { after, repairedIndex } = rewriteCase(this.steps, this.stepIndex, {
      name: candidate.name,
      role: candidate.role,
      keepRegion: regionFound,
      reveal: trigger?.line ?? null,
    });
    const proof = await this.proveOnce(after, repairedIndex, `${candidate.readRole} "${candidate.name}"`);
    if (!proof) return null;
    const signals = [...candidate.signals];
    if (trigger) signals.push(`revealed by one click on ${trigger.readRole} "${trigger.name}"`);
    const summary = repairSummary(this.target, this.lastRole, candidate, trigger);
    return this.outcome(after, proof, summary, signals, undefined);
  }

  private async tryModel(model: { lines: string[]; reason: string }): Promise<RepairOutcome | null> {
    const proposer = this.options.proposer;
    if (!proposer) return null;
    const after = [
      ...this.steps.slice(0, this.stepIndex),
      ...model.lines,
      ...this.steps.slice(this.stepIndex + 1),
    ];
    const repairedIndex = this.stepIndex + model.lines.length - 1;
    const proof = await this.proveOnce(
      after,
      repairedIndex,
      `the model's ${model.lines.map((l) => `"${l}"`).join(', ')}`,
    );
    if (!proof) {
      this.signals.push("model's proposal failed its proof");
      return null;
    }
    const summary = `${describeTarget(this.target, this.lastRole)} is gone; the model replaced step ${this.stepIndex + 1} with ${model.lines.map((l) => `"${l}"`).join(', ')}: ${model.reason}`;
    return this.outcome(
      after,
      proof,
      summary.charAt(0).toUpperCase() + summary.slice(1),
      [],
      proposer.engine,
    );
  }

  /** Proves the repaired steps once (never the same twice, never a rejected one); null unless it passed. */
  private async proveOnce(after: string[], repairedIndex: number, what: string): Promise<Proof | null> {
    const key = after.join('\n');
    if (this.seen.has(key) || this.proofsLeft <= 0) return null;
    this.seen.add(key);
    if (this.isRejected(after)) {
      this.signals.push(`not proposed again: ${what} was rejected before for this page state`);
      return null;
    }
    this.proofsLeft--;
    this.tried.push(what);
    const proof = await prove(this.request.testCase, after, repairedIndex, this.options);
    if (this.options.signal?.aborted) throw new AbortedError();
    return proof.passed ? proof : null;
  }

  private isRejected(after: string[]): boolean {
    return this.request.rejected.some(
      (r) =>
        r.page_state === this.pageState &&
        r.after.length === after.length &&
        r.after.every((l, i) => l === after[i]),
    );
  }

  private outcome(
    after: string[],
    proof: Proof,
    summary: string,
    signals: string[],
    engine: string | undefined,
  ): RepairOutcome {
    const weakenings = assertionWeakenings(this.steps, after);
    return {
      verdict: weakenings.length > 0 ? 'weakens' : 'repair',
      after,
      stepIndex: this.stepIndex,
      weakenings,
      evidence: builtEvidence(summary, [...signals, ...this.signals], proof, engine),
      page_state: this.pageState ?? '',
      screenshot: proof.screenshot,
    };
  }

  private nothingFound(look: Survey): RepairOutcome {
    const summary = nothingDoesIt(this.target, this.lastRole, look.page.path || '/', this.tried);
    return bugOutcome(this.stepIndex, summary, this.signals, this.pageState);
  }
}
