import { ScreenshotListSchema, type ScreenshotRef } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/screenshots/test-run/{id} (Authorization header): the run's screenshots, freshly signed links. */
export function getRunScreenshots(runId: string, signal?: AbortSignal): Promise<ScreenshotRef[]> {
  return apiRequest(
    `/api/screenshots/test-run/${encodeURIComponent(runId)}`,
    { signal },
    ScreenshotListSchema,
  );
}
