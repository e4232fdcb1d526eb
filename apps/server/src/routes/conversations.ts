import type { ConversationMessageRow, ConversationRow } from '@argus/db';
import {
  type Conversation,
  ConversationCreateSchema,
  ConversationMessageCreateSchema,
  type ConversationMessageRecord,
  ConversationSchema,
  IdParamsSchema,
  SaveConversationTestResponseSchema,
  SaveConversationTestSchema,
  SessionListQuerySchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { checkSessionOwner } from '../auth/ownership';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import { addToAutomationSession, testCaseOf } from './conversation-test-case';
import { mountRoutes, routeGroup, routeOf } from './route-group';

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

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ConversationRouteServices = Pick<Services, 'repos' | 'conversations' | 'pool'> & {
  config: Pick<Services['config'], 'maxCasesPerRun' | 'maxStepsPerCase'>;
};

/**
 * `/api/conversations`: the conversations of conversational mode and their messages, owner-scoped
 * (another user's conversation answers 404 like a missing one), and "Save as test".
 */
const route = routeOf<ConversationRouteServices>();

export const CONVERSATION_ROUTES = routeGroup('/api/conversations', [
  route({
    method: 'POST',
    path: '/',
    summary: 'Start a conversation record',
    tag: 'Conversations',
    body: ConversationCreateSchema,
    status: 201,
    response: ConversationSchema,
    handle: async ({ user, body }, { repos }) => {
      await checkSessionOwner(repos, user.id, body.session_id);
      const row = await repos.conversations.create(user.id, {
        session_id: body.session_id || null,
        title: body.title,
        url: body.url || null,
      });
      return toApiConversation(row);
    },
  }),
  route({
    method: 'GET',
    path: '/',
    summary: 'Conversations',
    tag: 'Conversations',
    query: PageQuerySchema,
    response: z.array(ConversationSchema),
    handle: async ({ user, query }, { repos }) =>
      (await repos.conversations.list(user.id, query)).map((row) => toApiConversation(row)),
  }),
  // Test mode only: what the live browsers hold (API tests check nothing is left behind or piles up).
  route({
    method: 'GET',
    path: '/diagnostics',
    summary: 'Live-browser diagnostics (test servers only)',
    tag: 'Conversations',
    registered: () => process.env.NODE_ENV === 'test',
    handle: async ({ request }, services) => ({
      live: services.conversations.liveCount(),
      pool: services.pool.stats(),
      frames: request.server.hub.frameStats(),
      memory: process.memoryUsage(),
      browserPid: (await services.pool.browserPid()) ?? null,
    }),
  }),
  route({
    method: 'GET',
    path: '/:id',
    summary: 'A conversation',
    tag: 'Conversations',
    params: IdParamsSchema,
    response: ConversationSchema,
    handle: async ({ user, params: { id } }, { repos }) => {
      const row = await repos.conversations.get(user.id, id);
      if (!row) throw notFound();
      return toApiConversation(row, (await repos.conversations.messages(user.id, id)) ?? []);
    },
  }),
  route({
    method: 'POST',
    path: '/:id/messages',
    summary: 'Add a message to a conversation record',
    tag: 'Conversations',
    params: IdParamsSchema,
    body: ConversationMessageCreateSchema,
    status: 201,
    handle: async ({ user, params, body }, { repos }) => {
      const row = await repos.conversations.addMessage(user.id, params.id, body);
      if (!row) throw notFound();
      return toApiMessage(row);
    },
  }),
  route({
    method: 'POST',
    path: '/:id/test-case',
    summary: 'Save a conversation as a test case',
    tag: 'Conversations',
    params: IdParamsSchema,
    body: SaveConversationTestSchema,
    status: 201,
    response: SaveConversationTestResponseSchema,
    handle: async ({ user, params: { id }, body }, { repos, config }) => {
      const conversation = await repos.conversations.get(user.id, id);
      if (!conversation) throw notFound();
      const messages = (await repos.conversations.messages(user.id, id)) ?? [];
      const testName = body.test_name ?? `Conversation: ${conversation.title}`;
      const made = testCaseOf(conversation, messages, testName);
      checkRunSize([made.testCase], config, { loc: ['body'] });
      const sessionId = await addToAutomationSession(
        repos.sessions,
        user.id,
        body.automation_session_id,
        testName,
        made,
      );
      return { test_case: made.testCase, automation_session_id: sessionId };
    },
  }),
]);

export async function conversationRoutes(app: FastifyInstance, services: ConversationRouteServices) {
  // The live browsers close with the server, before the browser pool does.
  app.addHook('onClose', async () => services.conversations.shutdown());
  mountRoutes(app, CONVERSATION_ROUTES, services);
}
