import {
  type CaseHistory,
  CaseHistoryQuerySchema,
  type HistoryPage,
  HistoryQuerySchema,
  IdParamsSchema,
  type RunComparison,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type HistoryRouteServices = Pick<Services, 'history'>;

/**
 * Test history (docs/HISTORY.md): the list of runs, design comparisons and conversations, a run
 * compared with the previous run of its suite, and a case's recent results. Owner-scoped: another
 * user's run answers 404 like a missing one.
 */
export async function historyRoutes(app: FastifyInstance, services: HistoryRouteServices) {
  const { history } = services;
  app.addHook('preHandler', app.requireUser);

  app.get('/', async (request): Promise<HistoryPage> => {
    const query = parseWith(HistoryQuerySchema, request.query, 'query');
    return history.list(currentUser(request).id, query);
  });

  app.get('/runs/:id', async (request): Promise<RunComparison> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return history.compareRun(currentUser(request).id, id);
  });

  app.get('/cases', async (request): Promise<CaseHistory> => {
    const query = parseWith(CaseHistoryQuerySchema, request.query, 'query');
    return history.caseHistory(currentUser(request).id, query);
  });
}
