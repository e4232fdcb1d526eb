import type { AnalyticsQuery } from '@argus/protocol';

// The analytics range and project live in the address (docs/HISTORY.md): a preset of the last 7, 30
// or 90 days ending today, or custom dates; days are counted in the browser's time zone.

export const RANGE_PRESETS = ['7', '30', '90', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface AnalyticsView {
  project: string;
  preset: RangePreset;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function isDay(value: string | null): value is string {
  return value !== null && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** A calendar day moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today in the browser's time zone, as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The last `days` days, today included. */
export function presetRange(days: number, today: string): { from: string; to: string } {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** What the address asks for; a preset when the custom dates are missing or backwards (30 days by default). */
export function viewFromSearch(search: URLSearchParams, today: string): AnalyticsView {
  const project = (search.get('project') ?? '').slice(0, 100);
  const asked = search.get('range');
  const from = search.get('from');
  const to = search.get('to');
  if (asked === 'custom' && isDay(from) && isDay(to) && from <= to) {
    return { project, preset: 'custom', from, to };
  }
  const preset = asked === '7' || asked === '90' ? asked : '30';
  return { project, preset, ...presetRange(Number(preset), today) };
}

/** The address of a view: presets by name (so a shared link keeps meaning 'the last 30 days'). */
export function searchFromView(view: AnalyticsView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.project) search.set('project', view.project);
  if (view.preset !== '30') search.set('range', view.preset);
  if (view.preset === 'custom') {
    search.set('from', view.from);
    search.set('to', view.to);
  }
  return search;
}

/** GET /api/analytics's query for a view. */
export function queryFromView(view: AnalyticsView, timeZone: string): AnalyticsQuery {
  return {
    ...(view.project ? { project_id: view.project } : {}),
    from: view.from,
    to: view.to,
    tz: timeZone,
  };
}

/** Every day of the range, in order. */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to && out.length <= 400; day = addDays(day, 1)) out.push(day);
  return out;
}
