import { type Schedule, type ScheduleInput, ScheduleSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { scheduleKeys } from './list-schedules';

/** POST /api/projects/{id}/schedules: a saved suite on an environment, at a preset's or a cron expression's times. */
export function createSchedule(projectId: string, body: ScheduleInput): Promise<Schedule> {
  return apiRequest(projectPath(projectId, 'schedules'), { method: 'POST', body }, ScheduleSchema);
}

export function useCreateSchedule(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleInput) => createSchedule(projectId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys(projectId) }),
  });
}
