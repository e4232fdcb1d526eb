import type { RunReport } from '@argus/protocol';
import type { AutomationFront } from './automation-front';

/**
 * A run's report as the run API answers it: a run not started yet that waits its turn in the line
 * reads `queued`, with `queue_position` (how many start before it); otherwise as recorded.
 */
export async function withQueuePlace(
  automation: Pick<AutomationFront, 'queuePlace'>,
  report: RunReport,
): Promise<RunReport> {
  if (report.status !== 'pending') return report;
  const place = await automation.queuePlace(report.id);
  return place === null ? report : { ...report, status: 'queued', queue_position: place };
}
