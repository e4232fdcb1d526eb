import {
  CaseHistoryQuerySchema,
  CaseHistorySchema,
  HistoryPageSchema,
  HistoryQuerySchema,
  IdParamsSchema,
  RunComparisonSchema,
} from '@argus/protocol';
import type { Services } from '../app-services';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type HistoryRouteServices = Pick<Services, 'history'>;

/**
 * Test history (docs/HISTORY.md): the list of runs, design comparisons and conversations, a run
 * compared with the previous run of its suite, and a case's recent results. Owner-scoped: another
 * user's run answers 404 like a missing one.
 */
const route = routeOf<HistoryRouteServices>();

export const HISTORY_ROUTES = routeGroup('/api/history', [
  route({
    method: 'GET',
    path: '/',
    summary: 'Test history: runs, design comparisons and conversations, newest first (keyset pages)',
    tag: 'History',
    query: HistoryQuerySchema,
    response: HistoryPageSchema,
    handle: async ({ org, query }, { history }) => history.list(org.id, query),
  }),
  route({
    method: 'GET',
    path: '/runs/:id',
    summary: 'A run compared with the previous run of its suite',
    tag: 'History',
    params: IdParamsSchema,
    response: RunComparisonSchema,
    handle: async ({ org, params }, { history }) => history.compareRun(org.id, params.id),
  }),
  route({
    method: 'GET',
    path: '/cases',
    summary: "A test case's recent results, grouped failures and last change",
    tag: 'History',
    query: CaseHistoryQuerySchema,
    response: CaseHistorySchema,
    handle: async ({ org, query }, { history }) => history.caseHistory(org.id, query),
  }),
]);

export const historyRoutes = routePlugin(HISTORY_ROUTES);
