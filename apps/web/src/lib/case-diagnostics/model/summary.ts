import type { DiagnosticsSummary } from '@argus/protocol';

/** What the closed console and network say of themselves: '2 console errors · 1 of 7 requests failed'. */
export function diagnosticsSummaryText(summary: DiagnosticsSummary | null): string {
  if (!summary) return 'none recorded';
  const errors = `${summary.console_errors} console error${summary.console_errors === 1 ? '' : 's'}`;
  const requests =
    summary.failed_requests > 0
      ? `${summary.failed_requests} of ${summary.requests} request${summary.requests === 1 ? '' : 's'} failed`
      : `${summary.requests} request${summary.requests === 1 ? '' : 's'}`;
  return `${errors} · ${requests}`;
}
