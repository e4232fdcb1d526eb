import { randomUUID } from 'node:crypto';
import type { ConversationMessageRow, ConversationRow } from '@argus/db';
import {
  type Conversation,
  ConversationCreateSchema,
  ConversationMessageCreateSchema,
  type ConversationMessageRecord,
  IdParamsSchema,
  PASSWORD_PLACEHOLDER,
  PASSWORD_SECRET,
  parseStep,
  type SaveConversationTestResponse,
  SaveConversationTestSchema,
  SessionListQuerySchema,
  type TestCase,
  TestCaseSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { checkSessionOwner } from '../auth/ownership';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

const PageQuerySchema = SessionListQuerySchema.pick({ limit: true, offset: true });

function toApiMessage(row: ConversationMessageRow): ConversationMessageRecord {
  return {
    id: row.id,
    role: row.role as ConversationMessageRecord['role'],
    content: row.content,
    actions: row.actions ?? [],
    created_at: row.created_at.toISOString(),
  };
}

function toApiConversation(row: ConversationRow, messages?: ConversationMessageRow[]): Conversation {
  return {
    id: row.id,
    session_id: row.session_id,
    title: row.title,
    url: row.url,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(messages ? { messages: messages.map(toApiMessage) } : {}),
  };
}

const notFound = () => new AppError('NOT_FOUND', 'Conversation not found');

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

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ConversationRouteServices = Pick<Services, 'repos' | 'conversations' | 'pool'> & {
  config: Pick<Services['config'], 'maxCasesPerRun' | 'maxStepsPerCase'>;
};

/**
 * `/api/conversations`: the conversations of conversational mode and their messages, owner-scoped
 * (another user's conversation answers 404 like a missing one), and "Save as test".
 */
export async function conversationRoutes(app: FastifyInstance, services: ConversationRouteServices) {
  const { conversations, sessions } = services.repos;
  app.addHook('preHandler', app.requireUser);
  // The live browsers close with the server, before the browser pool does.
  app.addHook('onClose', async () => services.conversations.shutdown());

  app.post('/', async (request, reply) => {
    const body = parseWith(ConversationCreateSchema, request.body, 'body');
    const userId = currentUser(request).id;
    await checkSessionOwner(services.repos, userId, body.session_id);
    const row = await conversations.create(userId, {
      session_id: body.session_id || null,
      title: body.title,
      url: body.url || null,
    });
    return reply.code(201).send(toApiConversation(row));
  });

  app.get('/', async (request): Promise<Conversation[]> => {
    const page = parseWith(PageQuerySchema, request.query, 'query');
    const rows = await conversations.list(currentUser(request).id, page);
    return rows.map((row) => toApiConversation(row));
  });

  // Test mode only: what the live browsers hold (API tests check nothing is left behind or piles up).
  if (process.env.NODE_ENV === 'test') {
    app.get('/diagnostics', async () => ({
      live: services.conversations.liveCount(),
      pool: services.pool.stats(),
      frames: app.hub.frameStats(),
      memory: process.memoryUsage(),
      browserPid: (await services.pool.browserPid()) ?? null,
    }));
  }

  app.get('/:id', async (request): Promise<Conversation> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const userId = currentUser(request).id;
    const row = await conversations.get(userId, id);
    if (!row) throw notFound();
    return toApiConversation(row, (await conversations.messages(userId, id)) ?? []);
  });

  app.post('/:id/messages', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(ConversationMessageCreateSchema, request.body, 'body');
    const row = await conversations.addMessage(currentUser(request).id, id, body);
    if (!row) throw notFound();
    return reply.code(201).send(toApiMessage(row));
  });

  /**
   * "Save as test": the step-language lines of the assistant's actions, in order, become one test
   * case (opening with the start page unless the actions do), added to the named automation
   * session's saved cases (settings.testCases, as the automation screen restores them) or to a new
   * automation session.
   */
  app.post('/:id/test-case', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(SaveConversationTestSchema, request.body ?? {}, 'body');
    const userId = currentUser(request).id;
    const conversation = await conversations.get(userId, id);
    if (!conversation) throw notFound();
    const messages = (await conversations.messages(userId, id)) ?? [];
    const lines = messages
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => (m.actions ?? []).map((a) => a.action.trim()))
      .filter(parses);
    if (lines.length === 0) {
      throw new AppError('VALIDATION', [
        {
          loc: ['path', 'id'],
          msg: 'This conversation has no browser actions to save yet: ask the assistant to do something first.',
          type: 'no_actions',
        },
      ]);
    }
    const opening = navigateTarget(lines[0]);
    const startUrl = conversation.url || (opening && /^https?:\/\//i.test(opening) ? opening : '');
    if (opening === null && !startUrl) {
      throw new AppError('VALIDATION', [
        {
          loc: ['path', 'id'],
          msg: 'This conversation has no start page and its actions do not open one, so a test could not begin.',
          type: 'no_start_page',
        },
      ]);
    }
    const steps = opening !== null ? lines : [`Navigate to ${startUrl}`, ...lines];
    const testName = body.test_name ?? `Conversation: ${conversation.title}`;
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
    checkRunSize([testCase], services.config, { loc: ['body'] });

    let sessionId: string;
    if (body.automation_session_id) {
      const session = await sessions.get(userId, body.automation_session_id);
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
      sessionId = session.id;
    } else {
      const created = await sessions.create(userId, {
        session_type: 'automation',
        title: testName,
        url: startUrl || null,
        settings: { url: startUrl, testMode: 'full', testCases: [testCase] },
      });
      sessionId = created.id;
    }
    const answer: SaveConversationTestResponse = { test_case: testCase, automation_session_id: sessionId };
    return reply.code(201).send(answer);
  });
}
