import type { RunReport } from '@argus/protocol';

/** A link the server answered relative (no PUBLIC_URL set) made absolute on the server named. */
export function absolute(server: string, link: string): string {
  if (/^https?:\/\//i.test(link)) return link;
  return `${server}${link.startsWith('/') ? '' : '/'}${link}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What `argus run` says of its repairs once the run is over (docs/CI.md#repairs-in-the-output): one line per failed
 * case with a verdict, a repair proposed with its review link or a failure that looks like a bug, then
 * how many repairs wait for review and where. The exit code does not change: a failed case fails the
 * run whether or not a repair is proposed for it.
 */
export function repairLines(report: RunReport, server: string): string[] {
  const lines: string[] = [];
  for (const result of report.results) {
    const { repair } = result;
    if (!repair || result.status === 'passed' || result.status === 'flaky') continue;
    const summary = repair.summary.trim().split('\n')[0];
    if (repair.verdict === 'bug') {
      lines.push(`  ✗ ${result.test_name}: looks like a bug: ${summary}`);
    } else if (repair.status === 'proposed') {
      const weakens = repair.verdict === 'weakens' ? ' (it weakens an assertion)' : '';
      lines.push(
        `  ✗ ${result.test_name}: repair proposed${weakens}: ${summary} — review: ${absolute(server, repair.review_url)}`,
      );
    }
  }
  const waiting = report.repairs?.proposed ?? 0;
  if (report.repairs && waiting > 0) {
    const count = plural(waiting, 'repair waits', 'repairs wait');
    lines.push(`argus: ${count} for review: ${absolute(server, report.repairs.review_path)}`);
  }
  return lines;
}
