import { useMutation } from '@tanstack/react-query';
import { authHeaders, buildUrl } from '../../../lib/api-client';
import { describeHttpError, networkError } from '../../../lib/api-error';
import { downloadUrl } from '../../../lib/download';
import { projectPath } from './keys';

/** What an export brought back, for the message after the download. */
export interface SuiteExport {
  fileName: string;
  /** Test cases exported. */
  tests: number;
  /** Lines left as TODO comments (the step language cannot express them). */
  todo: number;
}

/** The file name of a `Content-Disposition: attachment; filename="…"` answer. */
export function attachmentName(header: string | null, fallback: string): string {
  const match = header?.match(/filename="([^"]+)"/);
  return match?.[1] ?? fallback;
}

/**
 * GET /api/projects/{id}/suites/{suiteId}/export: the suite as a Playwright Test project (a zip),
 * downloaded under the name the server gives it (docs/EXPORT.md). A zip is bytes, so this reads the
 * answer as a blob instead of apiRequest's JSON, with the same bearer token and error messages.
 */
export async function exportSuite(
  projectId: string,
  suiteId: string,
  environmentId?: string,
): Promise<SuiteExport> {
  const headers = { Accept: 'application/zip, application/json', ...authHeaders() };
  let response: Response;
  try {
    response = await fetch(
      buildUrl(projectPath(projectId, 'suites', suiteId, 'export'), { environment_id: environmentId }),
      { headers },
    );
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
  const blob = await response.blob();
  const fileName = attachmentName(response.headers.get('content-disposition'), 'suite-playwright.zip');
  const href = URL.createObjectURL(blob);
  downloadUrl(href, fileName);
  // Revoked later, not at once: the browser reads the blob after the click.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return {
    fileName,
    tests: Number(response.headers.get('x-argus-export-tests') ?? 0),
    todo: Number(response.headers.get('x-argus-export-todo') ?? 0),
  };
}

export function useExportSuite(projectId: string) {
  return useMutation({
    mutationFn: ({ suiteId, environmentId }: { suiteId: string; environmentId?: string }) =>
      exportSuite(projectId, suiteId, environmentId),
  });
}

/** What the screen says after an export: `Exported 4 test cases; 1 line left as TODO comments`. */
export function exportSummary({ tests, todo }: Pick<SuiteExport, 'tests' | 'todo'>): string {
  const cases = `${tests} test case${tests === 1 ? '' : 's'}`;
  const lines = `${todo} line${todo === 1 ? '' : 's'}`;
  return `Exported ${cases}; ${lines} left as TODO comments`;
}
