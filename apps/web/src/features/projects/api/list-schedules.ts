import { type Schedule, ScheduleSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

const ScheduleListSchema = z.array(ScheduleSchema);

/** Query key of a project's schedules (under the project's own, so a project refresh reads them again). */
export const scheduleKeys = (projectId: string) => [...projectKeys.detail(projectId), 'schedules'] as const;

/** GET /api/projects/{id}/schedules: the project's schedules, with their next and last due times. */
export function listSchedules(projectId: string, signal?: AbortSignal): Promise<Schedule[]> {
  return apiRequest(projectPath(projectId, 'schedules'), { signal }, ScheduleListSchema);
}

/** How often the list is read again (next and last runs move on by themselves). */
const REFRESH_MS = 30_000;

export function useSchedules(projectId: string) {
  return useQuery({
    queryKey: scheduleKeys(projectId),
    queryFn: ({ signal }) => listSchedules(projectId, signal),
    refetchInterval: REFRESH_MS,
  });
}
