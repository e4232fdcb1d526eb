import { type ScreenshotRef, ScreenshotRefSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { repairKeys } from './keys';

/**
 * GET /api/screenshots/{id}: one stored screenshot with a short-lived link signed for it (an <img>
 * cannot send the login token; docs/PRODUCT.md#screenshots).
 */
export function getScreenshot(id: string, signal?: AbortSignal): Promise<ScreenshotRef> {
  return apiRequest(`/api/screenshots/${encodeURIComponent(id)}`, { signal }, ScreenshotRefSchema);
}

/** The link expires: it is kept a minute, and read again when the image no longer opens. */
export function useScreenshot(id: string | null) {
  return useQuery({
    queryKey: repairKeys.screenshot(id ?? ''),
    queryFn: ({ signal }) => getScreenshot(id ?? '', signal),
    enabled: id !== null,
    staleTime: 60_000,
    retry: false,
  });
}
