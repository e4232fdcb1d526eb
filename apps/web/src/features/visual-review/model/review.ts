import type { VisualBaseline, VisualBox, VisualRunCheck } from '@argus/protocol';

// What the visual review decides before it draws (issue 40, docs/VISUAL-CHECKS.md): the order of the
// cards, the counts, the sentences the cards say, and where a box of the capture falls on the image as
// shown. No React here: the screen's components read it.

/** A check a reviewer can still decide: changed, or new with no baseline yet. */
export function isPending(check: VisualRunCheck): boolean {
  return check.review === 'pending';
}

/**
 * The cards' order: pending first (changed before new), then the decided ones (approved, rejected),
 * then those that looked as approved; stable within each.
 */
export function reviewOrder(checks: readonly VisualRunCheck[]): VisualRunCheck[] {
  const rank = (c: VisualRunCheck) => {
    if (c.review === 'pending') return c.status === 'new' ? 1 : 0;
    if (c.review === 'none') return 3;
    return 2;
  };
  return checks
    .map((check, index) => ({ check, index }))
    .sort((a, b) => rank(a.check) - rank(b.check) || a.index - b.index)
    .map(({ check }) => check);
}

/** The run's checks split as the list shows them: a card each to review (or decided), and the rest collapsed. */
export function splitChecks(checks: readonly VisualRunCheck[]): {
  cards: VisualRunCheck[];
  asApproved: VisualRunCheck[];
} {
  const ordered = reviewOrder(checks);
  return {
    cards: ordered.filter((c) => c.review !== 'none'),
    asApproved: ordered.filter((c) => c.review === 'none'),
  };
}

export interface VisualCounts {
  /** Waiting for a decision, and of them the changed and the new ones. */
  pending: number;
  changed: number;
  new: number;
  /** Looked as approved. */
  same: number;
  approved: number;
  rejected: number;
}

export function countChecks(checks: readonly VisualRunCheck[]): VisualCounts {
  const counts: VisualCounts = { pending: 0, changed: 0, new: 0, same: 0, approved: 0, rejected: 0 };
  for (const check of checks) {
    if (check.review === 'pending') {
      counts.pending += 1;
      if (check.status === 'new') counts.new += 1;
      else counts.changed += 1;
    } else if (check.review === 'approved') counts.approved += 1;
    else if (check.review === 'rejected') counts.rejected += 1;
    else counts.same += 1;
  }
  return counts;
}

/** The ids 'Approve all in this run' takes: every check waiting. */
export function approveAllIds(checks: readonly VisualRunCheck[]): string[] {
  return checks.filter(isPending).map((c) => c.id);
}

/** 'Review', 'Review (3)': the section names the checks waiting. */
export function reviewLabel(toReview: number | undefined): string {
  return toReview ? `Review (${toReview})` : 'Review';
}

/** The check's status in words: 'Changed', 'New visual check', 'Looks as approved'. */
export function statusLabel(check: Pick<VisualRunCheck, 'status'>): string {
  switch (check.status) {
    case 'changed':
      return 'Changed';
    case 'new':
      return 'New visual check';
    default:
      return 'Looks as approved';
  }
}

/** The toolbar's line: '3 to review: 2 changed, 1 new', or 'Nothing waits for review'. */
export function summaryText(counts: VisualCounts): string {
  if (counts.pending === 0) {
    const decided = counts.approved + counts.rejected;
    return decided > 0 ? `Nothing waits for review · ${decided} decided` : 'Nothing waits for review';
  }
  const parts: string[] = [];
  if (counts.changed > 0) parts.push(`${counts.changed} changed`);
  if (counts.new > 0) parts.push(`${counts.new} new`);
  return `${counts.pending} to review: ${parts.join(', ')}`;
}

/** A local date and time; the raw text when it is not a date. Locale and zone for the tests. */
export function whenText(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/**
 * A decided check's line: 'Approved by mia · 30 Nov 2026, 07:10: now the baseline', 'Rejected by mia
 * · …: a bug, the baseline stays'; null while it waits or when it looked as approved.
 */
export function decisionText(
  check: Pick<VisualRunCheck, 'review' | 'decided_by' | 'decided_at'> &
    Partial<Pick<VisualRunCheck, 'decision_reason'>>,
  when: (iso: string) => string = whenText,
): string | null {
  if (check.review !== 'approved' && check.review !== 'rejected') return null;
  const who = check.decided_by ? ` by ${check.decided_by}` : '';
  const at = check.decided_at ? ` · ${when(check.decided_at)}` : '';
  if (check.review === 'approved') return `Approved${who}${at}: now the baseline`;
  const why = check.decision_reason ? ` (“${check.decision_reason}”)` : '';
  return `Rejected${who}${at}: a bug, the baseline stays${why}`;
}

/** The baseline whose history a check's card opens: the one its approval made, else the one it was compared with. */
export function historyBaselineId(
  check: Pick<VisualRunCheck, 'made_baseline_id' | 'baseline'>,
): string | null {
  return check.made_baseline_id ?? check.baseline?.id ?? null;
}

/** '1440 × 900'. */
export function viewportText(viewport: { width: number; height: number }): string {
  return `${viewport.width} × ${viewport.height}`;
}

/** 'Colour', 'Position', 'Missing': an issue's kind as a label. */
export function issueKindText(kind: string): string {
  const words = kind.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Difference';
}

/** The first 8 characters of a run's id, as the other screens name a run. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** A baseline's line in its history: 'Approved by mia · 30 Nov 2026, 07:10 · from run 3f2a91c0'. */
export function baselineText(
  baseline: Pick<VisualBaseline, 'approved_by' | 'created_at' | 'source_run_id' | 'copied_from'>,
  when: (iso: string) => string = whenText,
): string {
  const parts = [`Approved by ${baseline.approved_by || 'someone'}`, when(baseline.created_at)];
  if (baseline.source_run_id) parts.push(`from run ${shortId(baseline.source_run_id)}`);
  else if (baseline.copied_from) parts.push('restored from an earlier baseline');
  return parts.join(' · ');
}

/** How a check can be looked at: a new check has only its capture; a changed one all three (difference when drawn). */
export type CheckView = 'side' | 'overlay' | 'diff';

export function viewsOf(check: Pick<VisualRunCheck, 'images'>): CheckView[] {
  if (check.images.baseline === null) return [];
  return check.images.diff === null ? ['side', 'overlay'] : ['side', 'overlay', 'diff'];
}

export const VIEW_TEXT: Record<CheckView, string> = {
  side: 'Side by side',
  overlay: 'Overlay',
  diff: 'Difference',
};

/**
 * Where a box of the capture (in its pixels, `width` × `height`) falls on the image as shown, in
 * percentages of it, so it scales with the shown size; clipped to the capture. Null when nothing of it
 * is inside (or the capture has no size).
 */
export function boxPercent(
  box: VisualBox,
  width: number,
  height: number,
): { left: string; top: string; width: string; height: string } | null {
  if (width <= 0 || height <= 0) return null;
  const x0 = Math.max(0, box.x);
  const y0 = Math.max(0, box.y);
  const x1 = Math.min(width, box.x + box.width);
  const y1 = Math.min(height, box.y + box.height);
  if (x1 <= x0 || y1 <= y0) return null;
  const pct = (value: number, of: number) => `${Math.round((value / of) * 10_000) / 100}%`;
  return {
    left: pct(x0, width),
    top: pct(y0, height),
    width: pct(x1 - x0, width),
    height: pct(y1 - y0, height),
  };
}

/** The overlay's slider, 0–100: how much of the current capture shows, from the left (clip-path). */
export function overlayClip(revealed: number): string {
  const value = Math.min(100, Math.max(0, revealed));
  return `inset(0 ${100 - value}% 0 0)`;
}

/** What a screen reader says of the slider's place. */
export function overlayValueText(revealed: number): string {
  const value = Math.round(Math.min(100, Math.max(0, revealed)));
  if (value === 0) return 'Baseline only';
  if (value === 100) return 'Now only';
  return `${value}% now, ${100 - value}% baseline`;
}

/** The check as its card names it: 'page' stays 'Whole page'; a region check its region's name. */
export function checkTitle(check: Pick<VisualRunCheck, 'check_name' | 'region'>): string {
  if (check.region) return check.check_name;
  return check.check_name.replace(/^page\b/, 'Whole page');
}
