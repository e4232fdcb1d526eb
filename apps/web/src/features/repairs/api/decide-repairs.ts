import {
  type ApproveRepairs,
  type ApproveRepairsResult,
  ApproveRepairsResultSchema,
  type CaseRepair,
  CaseRepairSchema,
  type RejectRepair,
} from '@argus/protocol';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';
import { repairKeys, suitePath } from './keys';

export interface ApproveVariables {
  projectId: string;
  suiteId: string;
  body: ApproveRepairs;
}

/** POST …/suites/{suite}/repairs/approve: the chosen proposals saved as one new suite version. */
export function approveRepairs({
  projectId,
  suiteId,
  body,
}: ApproveVariables): Promise<ApproveRepairsResult> {
  return apiRequest(
    suitePath(projectId, suiteId, 'repairs', 'approve'),
    { method: 'POST', body },
    ApproveRepairsResultSchema,
  );
}

export interface RejectVariables {
  repair: CaseRepair;
  body: RejectRepair;
}

/** POST …/suites/{suite}/repairs/{repair}/reject: not proposed again for the same page state. */
export function rejectRepair({ repair, body }: RejectVariables): Promise<CaseRepair> {
  return apiRequest(
    suitePath(repair.project_id, repair.suite_id, 'repairs', repair.id, 'reject'),
    { method: 'POST', body },
    CaseRepairSchema,
  );
}

/**
 * After a decision every repairs list is read again, and the project's pages too (an approval saves
 * a suite version; the projects feature keeps its queries under ['projects']).
 */
function refresh(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: repairKeys.all }),
    queryClient.invalidateQueries({ queryKey: PROJECTS_QUERY_KEY }),
  ]);
}

export function useApproveRepairs() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveRepairs, onSuccess: () => refresh(queryClient) });
}

export function useRejectRepair() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rejectRepair, onSuccess: () => refresh(queryClient) });
}
