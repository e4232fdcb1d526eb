import {
  PASSWORD_PLACEHOLDER,
  parseStep,
  protectPasswords,
  relativeToEnvironment,
  type Step,
} from '@argus/protocol';

export { PASSWORD_PLACEHOLDER, PASSWORD_SECRET, protectPasswords } from '@argus/protocol';

// 'Use as login' (docs/PROJECTS.md#sites-behind-a-login): a conversation's browser actions become the
// recorded login of a project: the same steps 'Save as test' saves, with the password typed in the
// conversation replaced by the project's {{PASSWORD}} secret and the pages opened made relative to
// the project's environment when they are on it.

/** What ProjectLoginSchema accepts of recorded steps. */
export const LOGIN_MAX_STEPS = 50;
export const LOGIN_MAX_STEP_LENGTH = 4000;

/** What the screen reads of a conversation (GET /api/conversations/{id}). */
export interface ConversationRecord {
  url: string | null;
  messages?: ReadonlyArray<{ role: string; actions: ReadonlyArray<{ action: string }> }>;
}

function tryParse(line: string): Step | null {
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

/**
 * The steps 'Save as test' makes of a conversation (the server's POST /api/conversations/{id}/test-case):
 * the assistant's actions that are lines of the step language, in order, opening with the
 * conversation's start page unless the first one opens a page. Empty when there is nothing to save.
 */
export function conversationSteps(conversation: ConversationRecord): string[] {
  const lines = (conversation.messages ?? [])
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => message.actions.map((action) => action.action.trim()))
    .filter((line) => tryParse(line) !== null);
  if (lines.length === 0) return [];
  const first = tryParse(lines[0]);
  if (first?.verb === 'navigate') return lines;
  const start = conversation.url ?? '';
  return /^https?:\/\//i.test(start) ? [`Navigate to ${start}`, ...lines] : lines;
}

/**
 * Pages on one of the project's environments become relative to it (`Navigate to /login.html`), so
 * the login signs in on every environment; the first base URL that holds the page wins.
 */
export function relativeToProject(lines: readonly string[], baseUrls: readonly string[]): string[] {
  let steps = [...lines];
  for (const base of baseUrls) {
    try {
      new URL(base);
    } catch {
      continue;
    }
    steps = relativeToEnvironment([{ steps, url: '' }], base)[0].steps;
  }
  return steps;
}

/** The login a conversation makes for a project, one step a line, and whether a password was replaced. */
export function loginDraft(
  conversation: ConversationRecord,
  baseUrls: readonly string[] = [],
): { text: string; passwordReplaced: boolean; empty: boolean } {
  const steps = conversationSteps(conversation);
  const { lines } = protectPasswords(steps);
  return {
    text: relativeToProject(lines, baseUrls).join('\n'),
    // Replaced here, or already by the server when it stored the conversation.
    passwordReplaced: lines.some((line) => line.includes(PASSWORD_PLACEHOLDER)),
    empty: steps.length === 0,
  };
}

export type LoginStepsCheck =
  | { steps: string[]; error: null; badLines: [] }
  | { steps: null; error: string; badLines: number[] };

const shorten = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

/**
 * The reviewed steps as the project stores them (lines trimmed, blank ones dropped), each checked with
 * the step language's parser; else what is wrong, naming the lines (1-based, as the textarea shows them).
 */
export function checkLoginSteps(text: string): LoginStepsCheck {
  const entries = text
    .split(/\r?\n/)
    .map((raw, index) => ({ line: index + 1, text: raw.trim() }))
    .filter((entry) => entry.text !== '');
  if (entries.length === 0) return { steps: null, error: 'Write at least one step', badLines: [] };
  const bad = entries.filter((entry) => tryParse(entry.text) === null);
  if (bad.length > 0) {
    const named = bad
      .slice(0, 3)
      .map((entry) => `line ${entry.line} ("${shorten(entry.text)}")`)
      .join(', ');
    const more = bad.length > 3 ? ` and ${bad.length - 3} more` : '';
    return {
      steps: null,
      error: `Not in the step language: ${named}${more}. Write e.g. Fill "Email" with "{{EMAIL}}".`,
      badLines: bad.map((entry) => entry.line),
    };
  }
  const long = entries.filter((entry) => entry.text.length > LOGIN_MAX_STEP_LENGTH);
  if (long.length > 0)
    return {
      steps: null,
      error: `Too long (at most ${LOGIN_MAX_STEP_LENGTH} characters): line ${long.map((e) => e.line).join(', ')}`,
      badLines: long.map((entry) => entry.line),
    };
  if (entries.length > LOGIN_MAX_STEPS)
    return {
      steps: null,
      error: `A login can have at most ${LOGIN_MAX_STEPS} steps (this has ${entries.length})`,
      badLines: [],
    };
  return { steps: entries.map((entry) => entry.text), error: null, badLines: [] };
}
