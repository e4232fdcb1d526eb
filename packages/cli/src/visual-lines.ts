import type { RunReport } from '@argus/protocol';
import { absolute } from './repair-lines';

/**
 * What visual changes waiting for review do to `argus run`'s exit code (`--visual`): `fail` (the
 * default) makes a run with any 'changes to review', exit 1 even when every case passed; `report` only
 * says them.
 */
export const VISUAL_MODES = ['fail', 'report'] as const;
export type VisualMode = (typeof VISUAL_MODES)[number];

/** `--visual`'s value, or null when it is neither `fail` nor `report`. */
export function visualModeOf(value: string | undefined): VisualMode | null {
  if (value === undefined) return 'fail';
  const mode = value.trim().toLowerCase();
  return (VISUAL_MODES as readonly string[]).includes(mode) ? (mode as VisualMode) : null;
}

/** How many of the run's visual checks wait for review (0 for a run with no visual summary). */
export const visualToReview = (report: Pick<RunReport, 'visual'>): number => report.visual?.to_review ?? 0;

/**
 * What `argus run` says of its visual checks once the run is over: how many changes wait for review,
 * and the run's Review list (absolute on the server, as the repair links are). Nothing when none wait.
 * Said whatever `--visual` is: only the exit code depends on it.
 */
export function visualLines(report: Pick<RunReport, 'visual'>, server: string): string[] {
  const waiting = visualToReview(report);
  if (!report.visual || waiting === 0) return [];
  const count = `${waiting} visual ${waiting === 1 ? 'change' : 'changes'}`;
  return [`argus: ${count} to review: ${absolute(server, report.visual.review_path)}`];
}
