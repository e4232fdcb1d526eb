import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { scheduleKeys } from './list-schedules';

/** DELETE /api/projects/{id}/schedules/{scheduleId} (204). */
export async function deleteSchedule(projectId: string, scheduleId: string): Promise<void> {
  await apiRequest(projectPath(projectId, 'schedules', scheduleId), { method: 'DELETE' });
}

export function useDeleteSchedule(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: string) => deleteSchedule(projectId, scheduleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys(projectId) }),
  });
}
