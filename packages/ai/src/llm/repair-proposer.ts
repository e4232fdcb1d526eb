import { AbortedError, type BrowserSession, type RepairProposer } from '@argus/engine';
import { parseStep } from '@argus/protocol';
import { z } from 'zod';
import type { ModelClient } from './model-client';
import { seesImages } from './model-config';
import { pageView } from './page-view';

/**
 * The model's answer: the lines to put in place of the failed step, and why. A flat shape every
 * provider's structured output accepts (no optional fields, no unions).
 */
export const RepairAnswerSchema = z.object({
  lines: z
    .array(z.string())
    .describe(
      'Step-language lines that replace the failed step (usually one; an extra click first when the control moved into a menu). Empty when the page shows no element that does what the step did.',
    ),
  reason: z
    .string()
    .describe('Why these lines do what the failed step did, naming the element on the page now'),
});
export type RepairAnswer = z.infer<typeof RepairAnswerSchema>;

/** The forms a replacement is written in (each is read by the step grammar as written here). */
const REPAIR_STEP_FORMS = `Step language (one step per line; quotes are required around names and values):
Click "<text>" | Click button "<name>" | Click link "<name>" | Click menuitem "<name>" | Click "<text>" in "<item>"
Fill "<field label>" with "<value>" | Select "<option>" from "<field>" | Check "<label>" | Uncheck "<label>"
Press Enter | Press Enter in "<field>" | Hover "<text>" | Double-click "<text>" | Wait for "<text>"
Verify text "<text>" is visible | Verify text "<text>" is visible in "<item>" | Verify button "<name>" is visible
Verify URL contains "<part>" | Verify title contains "<text>" | Verify field "<field>" has value "<value>"
Verify "<label>" is checked | Verify exactly 3 listitems are visible | Verify at least 2 rows are visible`;

/**
 * The rules are the point: a repair follows the app's new words and layout, never what it checks. The
 * engine verifies this again (assertion-strength.ts flags any weaker check) and proves the repair by
 * running it; the prompt asks for it so that a weakening is the model's mistake, not its instruction.
 */
export const REPAIR_SYSTEM = `You repair one failed step of a saved end-to-end test of a web app whose design changed:
labels renamed, controls moved (into a menu, above a list), forms split. You see the test's steps with the failed one
marked, its error, the selector that matched when the test last passed, and the page now as numbered interactive
elements and visible text.
Answer with the step-language lines to put in place of the failed step: the same action on the element a person
would take for the one the step named (same kind of control, closest name, same place in the page). When the control
is now behind a menu or a toggle, open it first with its own line.
Rules:
- Never remove, loosen or invert a check. If the failed step is a Verify or Wait for step, write the same check
  with only the element or text renamed to what the page now shows for the same thing, keeping every number and
  every value the test typed, its "in <item>" and its "not".
- Use only elements and texts listed on the page now; never invent one.
- If the page shows the app is broken rather than changed (an error message, the element there but the expected
  state not holding) or nothing on the page does what the step did, answer with no lines and say why.
- Write at most 4 lines, each exactly in the step language below.

${REPAIR_STEP_FORMS}

Answer with JSON only: {"lines": [..], "reason": ".."}`;

/** Steps shown around the failed one (a case may have 500). */
const STEPS_BEFORE = 30;
const STEPS_AFTER = 10;
/** A model's answer longer than this replaces more than one step: refused. */
const MAX_LINES = 4;

export interface LlmRepairProposerOptions {
  /** The user's model client (its `redact` hides the run's secrets from every prompt). */
  client: ModelClient;
}

/**
 * The LLM engine's repair proposer (RepairProposer, packages/engine/src/repair/repair-types.ts): shows
 * the model the page the failed step left and the step's last passing evidence, and returns the lines
 * it proposes when every one of them is a line of the step language. What it proposes is not trusted:
 * the engine runs the repaired case to prove it and compares its checks with the case's own.
 */
export class LlmRepairProposer implements RepairProposer {
  readonly engine: string;

  constructor(private readonly options: LlmRepairProposerOptions) {
    this.engine = options.client.engine;
  }

  /**
   * Null when the model proposes nothing, or lines that are not all step language, or more than
   * {@link MAX_LINES}. Throws AbortedError when stopped, and a ModelError when the model cannot be
   * asked (budget, key, timeout) or keeps answering out of shape.
   */
  async propose(
    session: BrowserSession,
    input: { steps: string[]; failedIndex: number; error: string; lastSelector: string | null },
    context: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<{ lines: string[]; reason: string } | null> {
    const { client } = this.options;
    const timeout = AbortSignal.timeout(Math.max(1, context.timeoutMs));
    const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
    if (signal.aborted) throw new AbortedError();
    const snapshot = await session.snapshot({ signal, timeoutMs: context.timeoutMs });
    const images = seesImages(client.config)
      ? [(await session.screenshot({ quality: 50, signal })).data]
      : [];
    const answer = await client.object({
      kind: 'repair',
      system: REPAIR_SYSTEM,
      prompt: repairPrompt(input, pageView(snapshot).text),
      images,
      schema: RepairAnswerSchema,
      name: 'step_repair',
      signal,
    });
    return acceptedAnswer(answer);
  }
}

/** The failed step among its neighbours, its error and evidence, and the page now. */
export function repairPrompt(
  input: { steps: string[]; failedIndex: number; error: string; lastSelector: string | null },
  page: string,
): string {
  const { steps, failedIndex } = input;
  const from = Math.max(0, failedIndex - STEPS_BEFORE);
  const to = Math.min(steps.length, failedIndex + STEPS_AFTER + 1);
  const shown = steps.slice(from, to).map((line, k) => {
    const n = from + k;
    return `${n === failedIndex ? '>>' : '  '} ${n + 1}. ${clipLine(line)}${n === failedIndex ? '   <- FAILED' : ''}`;
  });
  if (from > 0) shown.unshift(`   (${from} steps before)`);
  if (to < steps.length) shown.push(`   (${steps.length - to} steps after)`);
  return [
    `The test's steps:\n${shown.join('\n')}`,
    `Failed step ${failedIndex + 1}: ${clipLine(steps[failedIndex] ?? '(none)')}`,
    `Its error now: ${input.error.slice(0, 600)}`,
    input.lastSelector
      ? `When the test last passed, this step matched: ${input.lastSelector}`
      : 'The test has no passing run on record for this step.',
    `The page now:\n${page}`,
  ].join('\n\n');
}

/** A step as shown to the model: a line may be 4,000 characters; 300 say what it does. */
const clipLine = (line: string) => (line.length > 300 ? `${line.slice(0, 299)}…` : line);

/** The model's lines when they are a repair the engine can try: 1–4 lines of the step language. */
export function acceptedAnswer(answer: RepairAnswer): { lines: string[]; reason: string } | null {
  const lines = answer.lines.map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length === 0 || lines.length > MAX_LINES) return null;
  for (const line of lines) {
    try {
      parseStep(line);
    } catch {
      return null;
    }
  }
  return { lines, reason: answer.reason.trim().slice(0, 1_000) };
}
