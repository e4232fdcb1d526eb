import type { AuditQuery } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { authHeaders, buildUrl } from '../../../lib/api-client';
import { describeHttpError, networkError } from '../../../lib/api-error';
import { downloadUrl } from '../../../lib/download';

export type AuditExportFormat = 'csv' | 'json';

/** The file name of a `Content-Disposition: attachment; filename="…"` answer. */
function attachmentName(header: string | null, fallback: string): string {
  return header?.match(/filename="([^"]+)"/)?.[1] ?? fallback;
}

/**
 * GET /api/audit/export?format=csv|json with the screen's filters, downloaded under the name the
 * server gives it. A file, so read as a blob rather than through apiRequest's JSON, with the same
 * bearer token and error messages.
 */
export async function exportAudit(
  query: Omit<AuditQuery, 'cursor' | 'limit'>,
  format: AuditExportFormat,
): Promise<string> {
  // The token and the current organization's header, as every other call sends them.
  const headers = authHeaders();
  let response: Response;
  try {
    response = await fetch(buildUrl('/api/audit/export', { ...query, format }), { headers });
  } catch (error) {
    throw networkError(error);
  }
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    throw describeHttpError(response.status, body);
  }
  const fileName = attachmentName(response.headers.get('content-disposition'), `audit.${format}`);
  const href = URL.createObjectURL(await response.blob());
  downloadUrl(href, fileName);
  // Revoked later, not at once: the browser reads the blob after the click.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return fileName;
}

export function useExportAudit() {
  return useMutation({
    mutationFn: ({
      query,
      format,
    }: {
      query: Omit<AuditQuery, 'cursor' | 'limit'>;
      format: AuditExportFormat;
    }) => exportAudit(query, format),
  });
}
