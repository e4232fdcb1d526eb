import { randomUUID } from 'node:crypto';
import type { ConversationMessageRow, ConversationRow } from '@argus/db';
import {
  PASSWORD_PLACEHOLDER,
  PASSWORD_SECRET,
  parseStep,
  type TestCase,
  TestCaseSchema,
} from '@argus/protocol';
import type { Services } from '../app-services';
import { AppError } from '../errors';

/**
 * "Save as test" (POST /api/conversations/:id/test-case): the step-language lines of the assistant's
 * actions, in order, become one test case (opening with the start page unless the actions do), added
 * to the named automation session's saved cases (settings.testCases, as the automation screen restores
 * them) or to a new automation session.
 */

/** The page a `Navigate to …` line opens, or null for any other line. */
function navigateTarget(line: string): string | null {
  try {
    const step = parseStep(line);
    return step.verb === 'navigate' ? step.url : null;
  } catch {
    return null;
  }
}

function parses(line: string): boolean {
  try {
    parseStep(line);
    return true;
  } catch {
    return false;
  }
}

function refusal(msg: string, type: string): AppError {
  return new AppError('VALIDATION', [{ loc: ['path', 'id'], msg, type }]);
}

/** The test case the conversation's actions make, and the page it starts on. */
export function testCaseOf(
  conversation: ConversationRow,
  messages: ConversationMessageRow[],
  testName: string,
): { testCase: TestCase; startUrl: string } {
  const lines = messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => (m.actions ?? []).map((a) => a.action.trim()))
    .filter(parses);
  if (lines.length === 0) {
    throw refusal(
      'This conversation has no browser actions to save yet: ask the assistant to do something first.',
      'no_actions',
    );
  }
  const opening = navigateTarget(lines[0]);
  const startUrl = conversation.url || (opening && /^https?:\/\//i.test(opening) ? opening : '');
  if (opening === null && !startUrl) {
    throw refusal(
      'This conversation has no start page and its actions do not open one, so a test could not begin.',
      'no_start_page',
    );
  }
  const steps = opening !== null ? lines : [`Navigate to ${startUrl}`, ...lines];
  const testCase: TestCase = TestCaseSchema.parse({
    id: randomUUID(),
    test_name: testName,
    description:
      `Saved from the conversation "${conversation.title}": ${lines.length} action${lines.length === 1 ? '' : 's'} in the order they were done.` +
      (lines.some((line) => line.includes(PASSWORD_PLACEHOLDER))
        ? ` The password typed in it was not kept: ${PASSWORD_PLACEHOLDER} types the ${PASSWORD_SECRET} secret of the project environment the test runs on.`
        : ''),
    steps,
    category: 'Conversation',
    priority: 'medium',
    expected_result: '',
    url: startUrl,
  });
  return { testCase, startUrl };
}

/** Adds the case to the user's automation session `sessionId`, or to a new one named `title`; answers the session's id. */
export async function addToAutomationSession(
  sessions: Services['repos']['sessions'],
  userId: string,
  sessionId: string | null | undefined,
  title: string,
  { testCase, startUrl }: { testCase: TestCase; startUrl: string },
): Promise<string> {
  if (!sessionId) {
    const created = await sessions.create(userId, {
      session_type: 'automation',
      title,
      url: startUrl || null,
      settings: { url: startUrl, testMode: 'full', testCases: [testCase] },
    });
    return created.id;
  }
  const session = await sessions.get(userId, sessionId);
  if (!session) throw new AppError('SESSION_NOT_FOUND');
  if (session.session_type !== 'automation') {
    throw new AppError('VALIDATION', [
      {
        loc: ['body', 'automation_session_id'],
        msg: 'Test cases can only be added to an automation session.',
        type: 'not_automation',
      },
    ]);
  }
  const settings = { ...(session.settings ?? {}) };
  const saved = Array.isArray(settings.testCases) ? settings.testCases : [];
  settings.testCases = [...saved, testCase];
  if (typeof settings.url !== 'string' || !settings.url) settings.url = startUrl || session.url || '';
  if (settings.testMode !== 'command') settings.testMode = 'full';
  await sessions.update(userId, session.id, { settings });
  return session.id;
}
