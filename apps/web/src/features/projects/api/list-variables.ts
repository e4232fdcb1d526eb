import { type Variable, VariableSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

const VariableListSchema = z.array(VariableSchema);

/** GET /api/projects/{id}/variables: every variable and secret; a secret's value is always null. */
export function listVariables(projectId: string, signal?: AbortSignal): Promise<Variable[]> {
  return apiRequest(projectPath(projectId, 'variables'), { signal }, VariableListSchema);
}

export function useVariables(projectId: string) {
  return useQuery({
    queryKey: projectKeys.variables(projectId),
    queryFn: ({ signal }) => listVariables(projectId, signal),
  });
}
