import { useMutation } from '@tanstack/react-query';
import { authHeaders, buildUrl } from '../../api-client';
import { describeHttpError, networkError } from '../../api-error';
import { downloadUrl } from '../../download';
import { casePath } from './keys';

/**
 * GET /api/runs/{runId}/cases/{resultId}/network.har: the case's requests as a HAR file. The route
 * takes the login (not a signed link), so the file is fetched with the bearer token and handed to the
 * browser as a blob, under the name given.
 */
export async function downloadHar(runId: string, resultId: string, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(buildUrl(casePath(runId, resultId, 'network.har')), {
      headers: { Accept: 'application/json', ...authHeaders() },
    });
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
  const href = URL.createObjectURL(await response.blob());
  downloadUrl(href, fileName);
  // Revoked later, not at once: the browser reads the blob after the click.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

export function useDownloadHar() {
  return useMutation({
    mutationFn: ({ runId, resultId, fileName }: { runId: string; resultId: string; fileName: string }) =>
      downloadHar(runId, resultId, fileName),
  });
}
