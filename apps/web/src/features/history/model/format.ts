import type { CaseChange, CaseOutcome, HistoryItem, HistoryOutcome } from '@argus/protocol';

// How history's values read on screen (docs/HISTORY.md): words and colours of a status, a change
// against the previous run, a trigger; durations, costs and times.

export type Tone = 'slate' | 'indigo' | 'green' | 'red' | 'orange' | 'amber';

export const OUTCOME_TEXT: Record<HistoryOutcome, { label: string; tone: Tone }> = {
  passed: { label: 'Passed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  flaky: { label: 'Flaky', tone: 'amber' },
  running: { label: 'Running', tone: 'indigo' },
  interrupted: { label: 'Interrupted', tone: 'orange' },
  done: { label: 'Done', tone: 'slate' },
};

export const CASE_OUTCOME_TEXT: Record<CaseOutcome, { label: string; tone: Tone }> = {
  passed: { label: 'Passed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  flaky: { label: 'Flaky', tone: 'amber' },
  skipped: { label: 'Skipped', tone: 'slate' },
};

export const CHANGE_TEXT: Record<CaseChange, { label: string; tone: Tone }> = {
  new_failure: { label: 'New failure', tone: 'red' },
  fixed: { label: 'Fixed', tone: 'green' },
  still_failing: { label: 'Still failing', tone: 'orange' },
  still_passing: { label: 'Still passing', tone: 'slate' },
  new: { label: 'New', tone: 'indigo' },
  removed: { label: 'Removed', tone: 'slate' },
};

/** A run's visual checks waiting for review, as its badge says it: 'Changes to review (3)'. */
export function visualReviewText(toReview: number): string {
  return `Changes to review (${toReview})`;
}

/** Who or what started a run, in words: "from screen", "via API", "scheduled"; null when unknown. */
export function triggerText(trigger: string | null): string | null {
  if (trigger === 'screen') return 'from screen';
  if (trigger === 'api') return 'via API';
  if (trigger === 'schedule') return 'scheduled';
  return null;
}

export const KIND_TEXT: Record<HistoryItem['kind'], string> = {
  run: 'Test run',
  comparison: 'Design comparison',
  conversation: 'Conversation',
};

/** '0.4 s', '12 s', '3 min 05 s', '1 h 02 min'; an en dash when unknown. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const total = Math.round(seconds);
  if (total < 3600) return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
  const minutes = Math.round(total / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A model cost in US dollars: '$0', '<$0.01', '$0.42', '$12.30'; null when there is none to show. */
export function formatCost(usd: number | null): string | null {
  if (usd === null || !Number.isFinite(usd)) return null;
  if (usd === 0) return '$0';
  if (usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/** '3 passed · 1 failed · 1 flaky' (zero flaky left out); null for an item without counts. */
export function countsText(
  item: Pick<HistoryItem, 'passed_tests' | 'failed_tests' | 'flaky_tests' | 'total_tests'>,
): string | null {
  if (item.total_tests === null && item.passed_tests === null) return null;
  const parts = [`${item.passed_tests ?? 0} passed`, `${item.failed_tests ?? 0} failed`];
  if (item.flaky_tests) parts.push(`${item.flaky_tests} flaky`);
  return parts.join(' · ');
}

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A local date and time; the raw text when it is not a date. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : WHEN.format(date);
}

/** 'just now', '5 min ago', '3 h ago', '2 days ago', then the date. */
export function relativeWhen(iso: string, now: number): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`;
  return formatWhen(iso);
}

/**
 * 'Checkout v3', or the title alone without a version, or when it names its version already (a
 * saved suite's run is titled 'Checkout (v3) on staging').
 */
export function suiteLabel(item: Pick<HistoryItem, 'title' | 'suite_version'>): string {
  const version = item.suite_version;
  if (!version || item.title.includes(`(v${version})`)) return item.title;
  return `${item.title} v${version}`;
}
