import { type FailureGroupList, FailureGroupListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api-client';
import { caseDiagnosticsKeys, type FailureGroupFilter } from './keys';

export type { FailureGroupFilter };

/** GET /api/failure-groups: the open failure groups (of a project, seen since a day). */
export function listFailureGroups(
  query: FailureGroupFilter,
  signal?: AbortSignal,
): Promise<FailureGroupList> {
  return apiRequest(
    '/api/failure-groups',
    { signal, query: { project_id: query.project_id, since: query.since, limit: query.limit } },
    FailureGroupListSchema,
  );
}

export function useFailureGroups(query: FailureGroupFilter) {
  return useQuery({
    queryKey: caseDiagnosticsKeys.groups(query),
    queryFn: ({ signal }) => listFailureGroups(query, signal),
  });
}
