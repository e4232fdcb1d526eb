import type { TestRunRow, VisualBaselineRow, VisualCheckRow } from '@argus/db';
import {
  type RunVisualSummary,
  type VisualBaseline,
  VisualBaselineSchema,
  type VisualIssue,
  type VisualRunCheck,
  VisualRunCheckSchema,
} from '@argus/protocol';
import type { SignedUrls } from '../storage/signed-urls';

// Visual checks and baselines as the API, the run report and the review screens show them
// (docs/VISUAL-CHECKS.md). Pictures are signed links for the owner, like screenshots'.

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function baselineFields(row: VisualBaselineRow): Omit<VisualBaseline, 'image'> {
  return {
    id: row.id,
    project_id: row.project_id,
    environment_id: row.environment_id,
    branch: row.branch,
    case_name: row.case_name,
    check_name: row.check_name,
    viewport: { width: row.viewport_width, height: row.viewport_height },
    browser: row.browser,
    width: row.width,
    height: row.height,
    moving_masks: row.moving_masks,
    user_masks: row.user_masks,
    element_masks: row.element_masks,
    threshold: row.threshold,
    approved_by: row.approved_by,
    source_run_id: row.source_run_id,
    copied_from: row.copied_from,
    created_at: row.created_at.toISOString(),
  };
}

/** A baseline, with a signed link to its picture (its JSON columns checked on the way out). */
export function toVisualBaseline(row: VisualBaselineRow, urls: SignedUrls): VisualBaseline {
  return VisualBaselineSchema.parse({
    ...baselineFields(row),
    image: urls.visual('baseline', row.id, row.user_id),
  });
}

/** A run's check with the baseline it was compared with, as the Review list shows it. */
export function toVisualRunCheck(
  check: VisualCheckRow,
  baseline: VisualBaselineRow | undefined,
  urls: SignedUrls,
): VisualRunCheck {
  const link = (kind: 'check-current' | 'check-baseline' | 'check-diff') =>
    urls.visual(kind, check.id, check.user_id);
  return VisualRunCheckSchema.parse({
    id: check.id,
    run_id: check.test_run_id,
    project_id: check.project_id,
    environment_id: check.environment_id,
    branch: check.branch,
    case_name: check.case_name,
    case_index: check.case_index,
    check_name: check.check_name,
    region: check.region,
    step_index: check.step_index,
    viewport: { width: check.viewport_width, height: check.viewport_height },
    browser: check.browser,
    status: check.status,
    issues: check.issues,
    message: check.message,
    review: check.review,
    width: check.width,
    height: check.height,
    moving_masks: check.moving_masks,
    url: check.url,
    baseline: baseline ? baselineFields(baseline) : null,
    images: {
      current: link('check-current'),
      baseline: baseline ? link('check-baseline') : null,
      diff: check.diff_sha256 ? link('check-diff') : null,
    },
    decided_by: check.decided_by,
    decided_at: iso(check.decided_at),
    decision_reason: check.decision_reason,
    made_baseline_id: check.made_baseline_id,
    created_at: check.created_at.toISOString(),
  });
}

/** The run page's Review list, relative to the server (runPagePath of apps/web/src/lib/run-links.ts). */
export function visualReviewPath(runId: string): string {
  return `/history/runs/${encodeURIComponent(runId)}?tab=review`;
}

/** What a run's report says of its visual checks: how many wait, where, and each one waiting. */
export function visualSummary(
  run: Pick<TestRunRow, 'id' | 'visual_to_review'>,
  pending: VisualCheckRow[],
): RunVisualSummary {
  return {
    to_review: run.visual_to_review,
    review_path: visualReviewPath(run.id),
    pending: pending.slice(0, 200).map((check) => ({
      case_name: check.case_name,
      check_name: check.check_name,
      status: check.status as RunVisualSummary['pending'][number]['status'],
      message: check.message,
      issues: (check.issues as VisualIssue[]).map((issue) => issue.message),
    })),
  };
}
