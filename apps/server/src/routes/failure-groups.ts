import { type FailureGroup, FailureGroupListSchema, FailureGroupQuerySchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { toFailureGroup } from '../diagnostics/failure-sightings';
import { AppError } from '../errors';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type FailureGroupRouteServices = Pick<Services, 'repos'>;

/** `since` as an instant: an ISO day (its start, UTC) or timestamp; anything else is refused. */
function sinceOf(since: string | undefined): Date | undefined {
  if (since === undefined) return undefined;
  const at = new Date(since);
  if (!/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(at.getTime())) {
    throw new AppError('VALIDATION', [
      { loc: ['query', 'since'], msg: 'An ISO date or timestamp (2026-11-20)', type: 'value_error' },
    ]);
  }
  return at;
}

/**
 * The open failure groups (docs/DIAGNOSTICS.md): failures recognised by their fingerprint that failed
 * in the latest finished run of their suite, with their first and last run, how many runs and which
 * cases. Scoped to the request's organization: another's runs are never counted.
 */
const route = routeOf<FailureGroupRouteServices>();

export const FAILURE_GROUP_ROUTES = routeGroup('/api/failure-groups', [
  route({
    method: 'GET',
    path: '/',
    summary: 'The open failure groups: the same failure across runs, with its first and last run',
    tag: 'History',
    query: FailureGroupQuerySchema,
    response: FailureGroupListSchema,
    handle: async ({ org, query }, { repos }) => {
      const rows = await repos.failureGroups.openGroups(org.id, {
        projectId: query.project_id,
        since: sinceOf(query.since),
        limit: query.limit,
      });
      return { groups: rows.map(toFailureGroup).filter((g): g is FailureGroup => g !== null) };
    },
  }),
]);

export const failureGroupRoutes = routePlugin(FAILURE_GROUP_ROUTES);
