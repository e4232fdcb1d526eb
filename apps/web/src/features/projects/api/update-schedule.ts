import { type Schedule, ScheduleSchema, type ScheduleUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { scheduleKeys } from './list-schedules';

/** PUT /api/projects/{id}/schedules/{scheduleId}: its times, zone, environment, or on/off. */
export function updateSchedule(
  projectId: string,
  scheduleId: string,
  body: ScheduleUpdate,
): Promise<Schedule> {
  return apiRequest(projectPath(projectId, 'schedules', scheduleId), { method: 'PUT', body }, ScheduleSchema);
}

export function useUpdateSchedule(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ScheduleUpdate }) => updateSchedule(projectId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys(projectId) }),
  });
}
