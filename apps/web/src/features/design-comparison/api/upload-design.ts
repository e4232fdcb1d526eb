import { type UploadedDesign, UploadedDesignSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/uploads, multipart with the image in field `file` (docs/DECISIONS.md#designs-over-http: designs go over HTTP,
 * the socket carries only the file_id). Through apiRequest like every other call: the token, the
 * `{detail}` errors (413 too large, 415 not an image, 422 unreadable) and a 401 signing the user out.
 */
export function uploadDesign(file: File, signal?: AbortSignal): Promise<UploadedDesign> {
  const form = new FormData();
  form.append('file', file, file.name || 'uploaded-design.png');
  return apiRequest('/api/uploads', { method: 'POST', multipart: form, signal }, UploadedDesignSchema);
}

export function useUploadDesign() {
  return useMutation({ mutationFn: (file: File) => uploadDesign(file) });
}
