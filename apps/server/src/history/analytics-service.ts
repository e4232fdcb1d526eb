import { type AnalyticsRange, isUuid, type Repositories } from '@argus/db';
import {
  ANALYTICS_MAX_DAYS,
  ANALYTICS_TOP,
  type Analytics,
  type AnalyticsQuerySchema,
} from '@argus/protocol';
import type { z } from 'zod';
import { AppError } from '../errors';

// Analytics over a range (docs/HISTORY.md#analytics): the figures are computed in SQL
// (packages/db/src/analytics.ts); this checks the range and the zone and shapes the answer.

type AnalyticsQuery = z.output<typeof AnalyticsQuerySchema>;

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Matches no project: an id that is not a uuid filters everything out rather than failing the SQL. */
const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

const invalid = (field: string, msg: string) =>
  new AppError('VALIDATION', [{ loc: ['query', field], msg, type: 'value_error' }]);

/** Whether the zone is an IANA zone name this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** How far `tz`'s wall clock is ahead of UTC at `instant`, in ms. */
function zoneOffset(instant: number, tz: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a day starts in `tz` (`days` later than the date given). */
export function dayStart(date: string, tz: string, days = 0): Date {
  const [, y, m, d] = BARE_DATE.exec(date) as RegExpExecArray;
  const wall = Date.UTC(+y, +m - 1, +d + days);
  // Twice: the offset at the first guess may differ from the offset at the answer across a DST change.
  let instant = wall - zoneOffset(wall, tz);
  instant = wall - zoneOffset(instant, tz);
  return new Date(instant);
}

/** The range asked, checked: [from, to), at most ANALYTICS_MAX_DAYS, days counted in `tz`. */
export function analyticsRange(query: AnalyticsQuery, now = new Date()): AnalyticsRange {
  const tz = query.tz ?? 'UTC';
  if (!isTimeZone(tz)) throw invalid('tz', 'Not a time zone this server knows (an IANA name: Europe/Paris)');
  const at = (value: string, end: boolean) =>
    BARE_DATE.test(value) ? dayStart(value, tz, end ? 1 : 0) : new Date(value);
  const to = query.to ? at(query.to, true) : now;
  const from = query.from ? at(query.from, false) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) throw invalid('from', '`from` must be before `to`');
  // An hour's slack: a range of whole days across a DST change is an hour longer.
  if (to.getTime() - from.getTime() > ANALYTICS_MAX_DAYS * DAY_MS + 3_600_000) {
    throw invalid('from', `A range of at most ${ANALYTICS_MAX_DAYS} days`);
  }
  return {
    from,
    to,
    tz,
    project_id:
      query.project_id === undefined ? undefined : isUuid(query.project_id) ? query.project_id : NO_PROJECT,
    top: ANALYTICS_TOP,
  };
}

export class AnalyticsService {
  constructor(private readonly repos: Pick<Repositories, 'analytics'>) {}

  async analytics(userId: string, query: AnalyticsQuery): Promise<Analytics> {
    const range = analyticsRange(query);
    const a = this.repos.analytics;
    // Independent queries: on PostgreSQL each takes its own pooled connection.
    const [daily, durations, { slowest, failing, flaky }, cost, scores] = await Promise.all([
      a.daily(userId, range),
      a.durations(userId, range),
      a.caseFigures(userId, range),
      a.modelCost(userId, range),
      a.designScores(userId, range),
    ]);

    const suites = new Map<string, Analytics['durations'][number]>();
    for (const row of durations) {
      if (row.day === null) {
        suites.set(row.key, {
          suite: row.suite,
          suite_id: row.suite_id,
          runs: row.runs,
          median_seconds: row.median_seconds,
          p95_seconds: row.p95_seconds,
          days: [],
        });
      }
    }
    for (const row of durations) {
      if (row.day !== null) {
        suites.get(row.key)?.days.push({
          day: row.day,
          median_seconds: row.median_seconds,
          p95_seconds: row.p95_seconds,
        });
      }
    }
    const sites = new Map<string, Analytics['design_scores'][number]>();
    for (const row of scores) {
      const site = sites.get(row.site) ?? { site: row.site, points: [] };
      site.points.push({ created_at: row.created_at, score: row.score, comparison_id: row.comparison_id });
      sites.set(row.site, site);
    }

    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      daily: daily.map((d) => ({ ...d, pass_rate: d.runs > 0 ? d.passed_runs / d.runs : 0 })),
      // The suites run most often; the rest would be lines nobody can read apart.
      durations: [...suites.values()]
        .sort((x, y) => y.runs - x.runs || x.suite.localeCompare(y.suite))
        .slice(0, ANALYTICS_TOP),
      slowest_tests: slowest,
      failing_steps: failing,
      flaky: flaky.map((f) => ({ ...f, flip_rate: f.runs > 1 ? f.flips / (f.runs - 1) : 0 })),
      model_cost: cost,
      design_scores: [...sites.values()],
    };
  }
}
