import { type UploadedDesign, UploadedDesignSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { ApiError, buildUrl } from '../../../lib/api-client';
import { describeHttpError, networkError } from '../../../lib/api-error';
import { getToken } from '../../../lib/auth-storage';

/**
 * POST /api/uploads, multipart with the image in field `file` (DESIGN.md §5: designs go over HTTP,
 * the socket carries only the file_id). apiRequest sends JSON only, so this one call builds its own
 * request; errors are read the same way (`{detail}`: 413 too large, 415 not an image, 422 unreadable).
 */
export async function uploadDesign(file: File, signal?: AbortSignal): Promise<UploadedDesign> {
  const form = new FormData();
  form.append('file', file, file.name || 'uploaded-design.png');
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    // No Content-Type: the browser sets multipart/form-data with its boundary.
    response = await fetch(buildUrl('/api/uploads'), { method: 'POST', headers, body: form, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError(error);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) throw describeHttpError(response.status, body);
  const parsed = UploadedDesignSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(response.status, 'The server sent an answer this app does not understand');
  }
  return parsed.data;
}

export function useUploadDesign() {
  return useMutation({ mutationFn: (file: File) => uploadDesign(file) });
}
