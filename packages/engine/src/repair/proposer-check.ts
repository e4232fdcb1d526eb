import { parseStep, type Step, StepSyntaxError, type TargetRole } from '@argus/protocol';
import type { BrowserSession } from '../browser-session';
import { cleanError } from '../errors';
import { lookupOf } from '../failure/step-target';
import { locate, locateRegion } from '../locate';
import type { RepairProposer } from './repair-types';

/**
 * The LLM engine's proposal, checked before it is proved: the model's lines must each be a line of the
 * step language, and every element they name must be on the page at the failed step. The lines are
 * carried out in order on the live page (a click that opens a menu comes before the menu item it
 * names), each element looked for first with a short timeout. A proposal that fails this is refused,
 * naming what the model named that is not there, and the built-in rules take over.
 */

export type ModelProposal = { lines: string[]; reason: string } | { refused: string } | null;

const FIND_TIMEOUT_MS = 1_500;
const LINE_TIMEOUT_MS = 3_000;

export async function askProposer(
  proposer: RepairProposer,
  session: BrowserSession,
  input: { steps: string[]; failedIndex: number; error: string; lastSelector: string | null },
  signal?: AbortSignal,
): Promise<ModelProposal> {
  const answer = await proposer
    .propose(session, input, { signal, timeoutMs: 60_000 })
    .catch((error: unknown) => ({ refused: `The model gave no proposal: ${cleanError(error)}` }));
  if (!answer || 'refused' in answer) return answer;
  if (answer.lines.length === 0) return null;
  for (const line of answer.lines) {
    let step: Step;
    try {
      step = parseStep(line);
    } catch (error) {
      const why = error instanceof StepSyntaxError ? 'is not a line of the step language' : cleanError(error);
      return { refused: `The model's line "${line}" ${why}` };
    }
    const missing = await missingElement(session, step, signal);
    if (missing) return { refused: `The model named ${missing}, which is not on the page` };
    try {
      await session.perform(step, { timeoutMs: LINE_TIMEOUT_MS, signal });
    } catch (error) {
      return { refused: `The model's line "${line}" failed on the page: ${cleanError(error)}` };
    }
  }
  return answer;
}

/** What the step names that is not on the page now (`button "Save"`), or null when all is there. */
async function missingElement(
  session: BrowserSession,
  step: Step,
  signal?: AbortSignal,
): Promise<string | null> {
  const lookup = lookupOf(step);
  if (!lookup?.target) return null;
  const page = session.playwrightPage;
  const what = `${lookup.role ?? (lookup.kind === 'field' ? 'field' : 'element')} "${lookup.target}"`;
  try {
    const within = lookup.region
      ? await locateRegion(page, lookup.region, FIND_TIMEOUT_MS, signal)
      : undefined;
    if (lookup.kind === 'text') {
      const text = (within?.locator ?? page).getByText(lookup.target).filter({ visible: true });
      await text.first().waitFor({ state: 'visible', timeout: FIND_TIMEOUT_MS });
      return null;
    }
    const role = lookup.role as TargetRole | undefined;
    await locate(page, lookup.target, lookup.kind, FIND_TIMEOUT_MS, role, signal, within);
    return null;
  } catch {
    return what;
  }
}
