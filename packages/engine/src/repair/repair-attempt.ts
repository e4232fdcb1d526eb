import { AbortedError } from '../errors';
import { BUILTIN_ENGINE } from '../test-runner';
import type { Candidate, CandidateContext } from './candidates';
import { stepEffect, strayedTo } from './effect';
import { bugOutcome, describeTarget, nothingDoesIt, repairSummary } from './evidence';
import { atFailedStep } from './explore';
import { readPageControls } from './page-controls';
import { askProposer, type ModelProposal } from './proposer-check';
import { type Proof, prove } from './prove';
import { renamedName } from './renames';
import { chainRepair, type Found } from './repair-chain';

import type { RepairOptions, RepairOutcome, RepairRequest } from './repair-types';
import { parses, type RepairTarget } from './repairable';
import { revealTriggers, surveyRevealed, type Trigger } from './reveal';
import { rewriteCase } from './rewrite-step';
import { type Survey, survey } from './survey';

/**
 * One failed step's repair (see propose-repair.ts): explore its page, ask the model when there is
 * one, try the built-in candidates and reveals, prove each. When a proof fails on a later repairable
 * step, a child attempt repairs that step on top of this one (`chain`).
 */

const DEFAULT_MAX_PROOFS = 3;
/** Verbs that put a value into a form (a step after one of them may be the form's submit). */
const FORM_INPUT = new Set(['fill', 'type', 'select', 'check', 'uncheck', 'fillFocused']);
/** Candidates proved per revealed page (the best ones; the rest of the budget for other reveals). */
const PROOFS_PER_REVEAL = 2;

export class RepairAttempt {
  private readonly steps: string[];
  private readonly lastRole: string | null;
  private readonly context: CandidateContext;
  private proofsLeft: number;
  private ownState: string | null = null;
  private readonly tried: string[] = [];
  private readonly signals: string[] = [];
  private readonly seen = new Set<string>();
  private readonly depth: number;
  /** The failed step's page path now (the survey's), once explored. */
  private path: string | null = null;
  /**
   * A visible candidate led to the same page with another query (a form's "Continue" loading its
   * second part): what it reveals is tried before the other visible candidates.
   */
  private nextPart = false;

  constructor(
    private readonly request: RepairRequest,
    private readonly options: RepairOptions,
    private readonly stepIndex: number,
    private readonly target: RepairTarget,
    /** The attempt this one continues (a later step of its proof), or null for the failed case's own. */
    private readonly parent: RepairAttempt | null,
  ) {
    this.steps = request.testCase.steps;
    this.depth = parent ? parent.depth + 1 : 0;
    this.proofsLeft = options.maxProofs ?? DEFAULT_MAX_PROOFS;
    const last = request.lastPassing?.steps.find((s) => s.index === stepIndex);
    const selector = last?.selector ?? null;
    this.lastRole = selector ? ([...selector.matchAll(/role=(\w+)/g)].pop()?.[1] ?? null) : null;
    const step = parses(this.steps[stepIndex]);
    const isCheck = step ? step.verb.startsWith('verify') || step.verb === 'waitForText' : true;
    const laterCheck = this.steps.slice(stepIndex + 1).some((line) => /^\s*(verify|wait for)\b/i.test(line));
    this.context = {
      failedIndex: stepIndex,
      stepCount: this.steps.length,
      lastRole: this.lastRole,
      lastUrl: last?.url ?? null,
      lastElement: last?.element ?? null,
      nameRequired: isCheck || !laterCheck,
      afterFormInput: FORM_INPUT.has(parses(this.steps[stepIndex - 1] ?? '')?.verb ?? ''),
      isCheck,
      effect: stepEffect(this.steps, stepIndex, request.lastPassing),
      renamed: renamedName(target.name, request.renames ?? []),
    };
  }

  /** The failed case's page state (the first attempt's): what a rejection is keyed by. */
  get pageState(): string | null {
    return this.parent ? this.parent.pageState : this.ownState;
  }

  async run(): Promise<Found | RepairOutcome> {
    const { options } = this;
    if (!this.context.nameRequired && (await this.passesWithout())) {
      const role = this.target.role ?? this.lastRole;
      if (this.context.effect.ledTo && role) {
        // It led to another page when the case last passed: a replacement is proved by leading there
        // too (`strayed`: elsewhere is refused), and must be what it was (a button for a button).
        this.context.roleRequired = role;
        this.signals.push(
          `the case passes without step ${this.stepIndex + 1}: only a ${role} leading where it led may replace it`,
        );
      } else {
        this.context.nameRequired = true;
        this.signals.push(
          `the case passes without step ${this.stepIndex + 1}: only a control of a related name may replace it`,
        );
      }
    }
    // Only a check that an element is shown looks at what appeared (a state check's element was there).
    if (parses(this.steps[this.stepIndex])?.verb === 'verifyElement')
      this.context.appeared = await this.appearedBefore();
    const explored = await atFailedStep(this.request.testCase, this.stepIndex, options, async (session) => {
      const look = await survey(session, { steps: this.steps, target: this.target, context: this.context });
      const model: ModelProposal = options.proposer
        ? await askProposer(options.proposer, session, this.proposerInput(), options.signal)
        : null;
      return { look, model };
    });
    if (options.signal?.aborted) throw new AbortedError();
    if (!explored.ok) {
      const summary = `The steps before step ${this.stepIndex + 1} fail now, so something earlier broke: ${explored.error}`;
      return bugOutcome(this.stepIndex, summary, ['earlier steps fail'], null);
    }
    const { look, model } = explored.value;
    this.ownState = look.pageState;
    this.path = look.page.path.split('#')[0];
    if (model && 'refused' in model) this.signals.push(`model refused: ${model.refused}`);
    else if (model) {
      const won = await this.tryModel(model);
      if (won) return won;
    }
    const found = await this.tryBuiltIn(look);
    if (found) return found;
    const summary = nothingDoesIt(this.target, this.lastRole, look.page.path || '/', this.tried);
    return bugOutcome(this.stepIndex, summary, this.signals, this.pageState);
  }

  /**
   * For a check that an element is shown: the controls on the page before the action the check
   * follows (`role:name`), so a control that appeared with that action, as the checked one did, can be
   * told apart (candidates.ts). Null when no action precedes it or those steps fail now.
   */
  private async appearedBefore(): Promise<Set<string> | null> {
    let action = this.stepIndex - 1;
    while (action >= 0 && /^\s*(verify|wait for)\b/i.test(this.steps[action])) action--;
    if (action < 0) return null;
    const before = await atFailedStep(this.request.testCase, action, this.options, (session) =>
      readPageControls(session.playwrightPage),
    );
    return before.ok ? new Set(before.value.controls.map((c) => `${c.role}:${c.name}`)) : null;
  }

  /**
   * Whether the case passes with the failed step left out: then its checks say nothing of what the
   * step did, and a replacement found by structure alone would be proved by nothing.
   */
  private async passesWithout(): Promise<boolean> {
    const without = this.steps.filter((_, index) => index !== this.stepIndex);
    const outcome = await this.options.run(
      { ...this.request.testCase, steps: without },
      { signal: this.options.signal, screenshots: false },
    );
    return outcome.status === 'passed';
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

  /**
   * The built-in rules' order: the visible candidates that score well, then the best of what one click
   * reveals (every trigger's page surveyed first, the best candidates across them proved), then the
   * weak visible candidates of the same kind and place, the proof alone deciding.
   */
  private async tryBuiltIn(look: Survey): Promise<Found | null> {
    const strong = look.candidates.filter((c) => !c.weak);
    const tries: { candidate: Candidate; trigger: Trigger | null; region: boolean }[] = strong.map(
      (candidate) => ({
        candidate,
        trigger: null,
        region: look.page.region,
      }),
    );
    const found = await this.tryInTurn(tries);
    if (found || this.proofsLeft <= 0) return found;
    if (!['text', 'title', 'url', 'region', 'state'].includes(this.target.want)) {
      const revealed = await this.revealed(look);
      const best = await this.tryInTurn(revealed);
      if (best || this.proofsLeft <= 0) return best;
    }
    if (this.nextPart) {
      // The visible candidates a form's next part was tried before (a proved one is not run again).
      this.nextPart = false;
      const rest = await this.tryInTurn(tries);
      if (rest || this.proofsLeft <= 0) return rest;
    }
    const weak = look.candidates.filter((c) => c.weak);
    return this.tryInTurn(weak.map((candidate) => ({ candidate, trigger: null, region: look.page.region })));
  }

  private async tryInTurn(
    tries: { candidate: Candidate; trigger: Trigger | null; region: boolean }[],
  ): Promise<Found | null> {
    for (const { candidate, trigger, region } of tries) {
      if (this.proofsLeft <= 0 || (this.nextPart && !trigger)) return null;
      const won = await this.tryCandidate(candidate, trigger, region);
      if (won) return won;
    }
    return null;
  }

  /** What each reveal trigger shows (a fresh page each), its well-scoring candidates best first. */
  private async revealed(look: Survey) {
    const found: { candidate: Candidate; trigger: Trigger | null; region: boolean }[] = [];
    for (const trigger of revealTriggers(look.page, this.context)) {
      const input = { target: this.target, context: this.context, shown: look.page };
      const shown = await surveyRevealed(this.request.testCase, trigger, input, this.options);
      if (this.options.signal?.aborted) throw new AbortedError();
      if (!shown.ok || !shown.value) continue;
      const region = shown.value.page.region;
      const strong = shown.value.candidates.filter((c) => !c.weak).slice(0, PROOFS_PER_REVEAL);
      found.push(...strong.map((candidate) => ({ candidate, trigger, region })));
      // A revealed element named as the target was: no other click is worth a fresh page.
      if (strong.some((c) => c.signals.includes('same name'))) break;
    }
    return found.sort((a, b) => b.candidate.score - a.candidate.score);
  }

  private async tryCandidate(
    candidate: Candidate,
    trigger: Trigger | null,
    regionFound: boolean,
  ): Promise<Found | null> {
    const { after, repairedIndex, insertedBefore } = rewriteCase(this.steps, this.stepIndex, {
      name: candidate.name,
      role: candidate.role,
      keepRegion: regionFound,
      part: this.target.want === 'region' || this.target.want === 'state' ? this.target.want : 'target',
      reveal: trigger?.line ?? null,
      was: this.target.role ?? this.lastRole,
    });
    const proof = await this.proveOnce(after, `${candidate.readRole} "${candidate.name}"`);
    if (!proof || this.strayed(proof, repairedIndex, `${candidate.readRole} "${candidate.name}"`))
      return null;
    const signals = [...candidate.signals];
    if (trigger) signals.push(`revealed by one click on ${trigger.readRole} "${trigger.name}"`);
    const summary = repairSummary(this.target, this.lastRole, candidate, trigger);
    const found = {
      after,
      repairedIndex,
      insertedBefore,
      proof,
      summaries: [summary],
      signals,
      engine: BUILTIN_ENGINE,
    };
    return proof.passed ? this.done(found) : this.chain(found);
  }

  private async tryModel(model: { lines: string[]; reason: string }): Promise<Found | null> {
    const proposer = this.options.proposer;
    if (!proposer) return null;
    const after = [
      ...this.steps.slice(0, this.stepIndex),
      ...model.lines,
      ...this.steps.slice(this.stepIndex + 1),
    ];
    const quoted = model.lines.map((l) => `"${l}"`).join(', ');
    const proof = await this.proveOnce(after, `the model's ${quoted}`);
    const repairedIndex = this.stepIndex + model.lines.length - 1;
    if (!proof || this.strayed(proof, repairedIndex, `the model's ${quoted}`)) return null;
    const gone = describeTarget(this.target, this.lastRole);
    const summary = `${gone.charAt(0).toUpperCase()}${gone.slice(1)} is gone; the model replaced step ${this.stepIndex + 1} with ${quoted}: ${model.reason}`;
    // The model's lines take the step's place: the later steps move by the lines it added.
    const insertedBefore = model.lines.slice(1).map(() => this.stepIndex + 1);
    const found = {
      after,
      repairedIndex,
      insertedBefore,
      proof,
      summaries: [summary],
      signals: [],
      engine: proposer.engine,
    };
    const won = proof.passed ? this.done(found) : await this.chain(found);
    if (!won) this.signals.push("the model's proposal failed its proof");
    return won;
  }

  private done(found: Found): Found {
    return { ...found, signals: [...found.signals, ...this.signals] };
  }

  /** The proof failed on a later step: that step repaired on top of this repair (repair-chain.ts). */
  private async chain(found: Found): Promise<Found | null> {
    const chained = await chainRepair(
      {
        request: this.request,
        steps: this.steps,
        depth: this.depth,
        want: this.target.want,
        signals: this.signals,
        attempt: (request, stepIndex, target) =>
          new RepairAttempt(request, this.options, stepIndex, target, this).run(),
      },
      found,
    );
    return chained && this.done(chained);
  }

  /**
   * Whether the replacement led somewhere else than the step did when the case last passed (the
   * action's effect, `strayedTo`): then it is not the target, whatever the later checks let through.
   */
  private strayed(proof: Proof, repairedIndex: number, what: string): boolean {
    const to = strayedTo(proof.urls.get(repairedIndex), this.context.effect);
    if (to) this.signals.push(`${what} led to ${to}, not where the step led when the case last passed`);
    if (to && this.path !== null && to.split(/[?#]/)[0] === this.path) this.nextPart = true;
    return to !== null;
  }

  /** Proves the repaired steps once (never the same twice, never a rejected one); null when not run. */
  private async proveOnce(after: string[], what: string): Promise<Proof | null> {
    const key = after.join('\n');
    if (this.seen.has(key) || this.proofsLeft <= 0) return null;
    this.seen.add(key);
    if (this.isRejected(after)) {
      this.signals.push(`not proposed again: ${what} was rejected before for this page state`);
      return null;
    }
    this.proofsLeft--;
    this.tried.push(what);
    const proof = await prove(this.request.testCase, after, this.options);
    if (this.options.signal?.aborted) throw new AbortedError();
    return proof;
  }

  private isRejected(after: string[]): boolean {
    const state = this.pageState;
    return this.request.rejected.some(
      (r) =>
        r.page_state === state && r.after.length === after.length && r.after.every((l, i) => l === after[i]),
    );
  }
}
