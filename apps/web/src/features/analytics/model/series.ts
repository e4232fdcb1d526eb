import type { Analytics } from '@argus/protocol';
import type { Table } from './csv';

// The analytics answer as chart series and tables (docs/HISTORY.md). Charts have one x value per
// day of the range (a day without runs is a gap in a rate, zero in a count); every chart's table
// holds the same numbers as its CSV.

/** Seconds since the epoch of a day's midnight (UTC: the chart draws days in UTC, so labels match). */
export function daySeconds(day: string): number {
  return Date.parse(`${day.slice(0, 10)}T00:00:00Z`) / 1000;
}

export interface Series {
  label: string;
  values: (number | null)[];
  /** Right-hand axis (counts beside a rate). */
  right?: boolean;
  bars?: boolean;
  dashed?: boolean;
  /** Each value drawn as a dot too (separate measurements, not a daily trend). */
  points?: boolean;
}

export interface ChartData {
  x: number[];
  series: Series[];
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const dayOf = (value: string) => value.slice(0, 10);

/** Pass rate (%) and runs per day. */
export function passRateChart(daily: Analytics['daily'], days: readonly string[]): ChartData {
  const byDay = new Map(daily.map((d) => [dayOf(d.day), d]));
  return {
    x: days.map(daySeconds),
    series: [
      { label: 'Runs', values: days.map((d) => byDay.get(d)?.runs ?? 0), right: true, bars: true },
      {
        label: 'Pass rate (%)',
        values: days.map((d) => {
          const row = byDay.get(d);
          return row && row.runs > 0 ? round(row.pass_rate * 100, 1) : null;
        }),
      },
    ],
  };
}

export function passRateTable(daily: Analytics['daily']): Table {
  return {
    columns: [
      'Day',
      'Runs',
      'Passed runs',
      'Failed runs',
      'Pass rate (%)',
      'Tests',
      'Failed tests',
      'Flaky tests',
    ],
    rows: daily.map((d) => [
      dayOf(d.day),
      d.runs,
      d.passed_runs,
      d.failed_runs,
      round(d.pass_rate * 100, 1),
      d.tests,
      d.failed_tests,
      d.flaky_tests,
    ]),
  };
}

/** How many suites the duration chart draws (the table lists them all). */
export const CHARTED_SUITES = 4;

/** Median (solid) and p95 (dashed) duration per day of the suites with the most runs. */
export function durationChart(durations: Analytics['durations'], days: readonly string[]): ChartData {
  const top = [...durations].sort((a, b) => b.runs - a.runs).slice(0, CHARTED_SUITES);
  const series: Series[] = [];
  for (const suite of top) {
    const byDay = new Map(suite.days.map((d) => [dayOf(d.day), d]));
    series.push({
      label: `${suite.suite} median (s)`,
      values: days.map((d) => byDay.get(d)?.median_seconds ?? null),
    });
    series.push({
      label: `${suite.suite} p95 (s)`,
      values: days.map((d) => byDay.get(d)?.p95_seconds ?? null),
      dashed: true,
    });
  }
  return { x: days.map(daySeconds), series };
}

export function durationTable(durations: Analytics['durations']): Table {
  return {
    columns: ['Suite', 'Runs', 'Median (s)', 'p95 (s)'],
    rows: durations.map((d) => [d.suite, d.runs, round(d.median_seconds), round(d.p95_seconds)]),
  };
}

/** Model cost (US dollars) per day, a series per engine. */
export function costChart(cost: Analytics['model_cost'], days: readonly string[]): ChartData {
  const engines = [...new Set(cost.map((c) => c.engine))].sort();
  const byKey = new Map(cost.map((c) => [`${c.engine}\u0000${dayOf(c.day)}`, c.cost_usd]));
  return {
    x: days.map(daySeconds),
    series: engines.map((engine) => ({
      label: `${engine} ($)`,
      values: days.map((d) => round(byKey.get(`${engine}\u0000${d}`) ?? 0, 4)),
    })),
  };
}

export function costTable(cost: Analytics['model_cost']): Table {
  return {
    columns: ['Day', 'Engine', 'Calls', 'Input tokens', 'Output tokens', 'Cost (USD)'],
    rows: cost.map((c) => [
      dayOf(c.day),
      c.engine,
      c.calls,
      c.input_tokens,
      c.output_tokens,
      round(c.cost_usd, 4),
    ]),
  };
}

/** Design scores over time: one x per comparison, a series per site (gaps where another site was compared). */
export function designChart(scores: Analytics['design_scores']): ChartData {
  const times = new Set<number>();
  for (const site of scores) for (const p of site.points) times.add(Date.parse(p.created_at) / 1000);
  const x = [...times].filter(Number.isFinite).sort((a, b) => a - b);
  const at = new Map(x.map((t, i) => [t, i]));
  return {
    x,
    series: scores.map((site) => {
      const values: (number | null)[] = x.map(() => null);
      for (const p of site.points) {
        const i = at.get(Date.parse(p.created_at) / 1000);
        if (i !== undefined) values[i] = round(p.score, 1);
      }
      return { label: site.site, values, points: true };
    }),
  };
}

export function designTable(scores: Analytics['design_scores']): Table {
  return {
    columns: ['Site', 'When', 'Score (%)', 'Comparison'],
    rows: scores.flatMap((site) =>
      site.points.map((p) => [site.site, p.created_at, round(p.score, 1), p.comparison_id]),
    ),
  };
}

export function slowestTable(slowest: Analytics['slowest_tests']): Table {
  return {
    columns: ['Test', 'Suite', 'Runs', 'Median (s)', 'Max (s)'],
    rows: slowest.map((t) => [t.name, t.suite, t.runs, round(t.median_seconds), round(t.max_seconds)]),
  };
}

export function failingStepsTable(steps: Analytics['failing_steps']): Table {
  return {
    columns: ['Step', 'Failures', 'Cases', 'Last seen', 'Last run'],
    rows: steps.map((s) => [s.step, s.failures, s.cases, s.last_seen, s.last_run_id]),
  };
}

export function flakyTable(flaky: Analytics['flaky']): Table {
  return {
    columns: [
      'Test',
      'Suite',
      'Version',
      'Runs',
      'Flips',
      'Flip rate (%)',
      'Passed on retry',
      'Runs involved',
    ],
    rows: flaky.map((f) => [
      f.name,
      f.suite,
      f.suite_version,
      f.runs,
      f.flips,
      round(f.flip_rate * 100, 1),
      f.retried_passes,
      f.run_ids.join(' '),
    ]),
  };
}

/** The range's totals, for the tiles atop the screen. */
export function totals(analytics: Analytics): {
  runs: number;
  passRate: number | null;
  flaky: number;
  cost: number;
} {
  const runs = analytics.daily.reduce((n, d) => n + d.runs, 0);
  const passed = analytics.daily.reduce((n, d) => n + d.passed_runs, 0);
  return {
    runs,
    passRate: runs > 0 ? round((passed / runs) * 100, 1) : null,
    flaky: analytics.flaky.length,
    cost: analytics.model_cost.reduce((n, c) => n + c.cost_usd, 0),
  };
}
