import { assertionWeakenings } from './assertion-strength';
import { bugOutcome, builtEvidence } from './evidence';
import { RepairAttempt } from './repair-attempt';
import type { RepairOptions, RepairOutcome, RepairRequest } from './repair-types';
import { judgeRepairable } from './repairable';

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
 *    most `maxProofs` proofs per failed step). A proof that gets past the repaired step and fails on a
 *    later one that is repairable too (a redesign renames more than one thing) goes on to repair that
 *    step the same way, up to `MAX_CHAIN` steps (`repair-chain.ts`). The first that passes wins,
 *    and its checks are compared with the case's (`assertionWeakenings`): weaker is `weakens`, never
 *    a plain repair. A repair rejected before for the same page state is not tried again. Nothing
 *    passing: a bug, saying what was looked for and what was tried.
 * Throws `AbortedError` when `options.signal` aborts.
 */
export async function proposeRepair(request: RepairRequest, options: RepairOptions): Promise<RepairOutcome> {
  const judged = judgeRepairable(request);
  if (!judged.repairable) return bugOutcome(judged.stepIndex, judged.summary, judged.signals, null);
  const attempt = new RepairAttempt(request, options, judged.stepIndex, judged.target, null);
  const found = await attempt.run();
  if ('verdict' in found) return found;
  const weakenings = assertionWeakenings(request.testCase.steps, found.after);
  return {
    verdict: weakenings.length > 0 ? 'weakens' : 'repair',
    after: found.after,
    stepIndex: judged.stepIndex,
    weakenings,
    evidence: builtEvidence(found.summaries.join('. '), found.signals, found.proof, found.engine),
    page_state: attempt.pageState ?? '',
    screenshot: found.proof.screenshots.get(found.repairedIndex) ?? null,
  };
}
