import type { ProjectSummary } from '@argus/protocol';
import {
  Activity,
  BarChart3,
  CircleDollarSign,
  Footprints,
  PenTool,
  Shuffle,
  Timer,
  Turtle,
} from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ScreenHeader } from '../../components/screen-header';
import { SegmentedControl } from '../../components/segmented-control';
import { SelectField } from '../../components/select-field';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { FailureGroupsPanel } from '../../lib/case-diagnostics';
import { useAnalytics } from './api/get-analytics';
import { ChartCard } from './components/chart-card';
import { displayCell } from './components/data-table';
import { RankedList } from './components/ranked-list';
import { csvFileName } from './model/csv';
import {
  type AnalyticsView,
  daysOf,
  localToday,
  presetRange,
  queryFromView,
  type RangePreset,
  searchFromView,
  viewFromSearch,
} from './model/range';
import {
  costChart,
  costTable,
  designChart,
  designTable,
  durationChart,
  durationTable,
  failingStepsTable,
  flakyTable,
  passRateChart,
  passRateTable,
  slowestTable,
  totals,
} from './model/series';

export interface AnalyticsScreenProps {
  projects: readonly ProjectSummary[];
  /** Where a run opens (Test History's run page; app/ hands it in). */
  runHref: (runId: string) => string;
}

const PRESETS: { value: RangePreset; label: string }[] = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: 'custom', label: 'Custom' },
];

const DATE_INPUT =
  'mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none';

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white px-4 py-3 shadow-xs">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-xl font-semibold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * Analytics (docs/HISTORY.md): over a range and project, pass rate and runs per day, durations per
 * suite, model cost per engine, design scores per site, and the ranked lists: flaky tests, slowest
 * tests, most frequent failing steps. Every chart has its table and CSV.
 */
export function AnalyticsScreen({ projects, runHref }: AnalyticsScreenProps) {
  const [search, setSearch] = useSearchParams();
  const today = localToday();
  const searchText = search.toString();
  const view = useMemo(() => viewFromSearch(new URLSearchParams(searchText), today), [searchText, today]);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const query = useMemo(() => queryFromView(view, timeZone), [view, timeZone]);
  const analytics = useAnalytics(query);
  const days = useMemo(() => daysOf(view.from, view.to), [view.from, view.to]);
  const setView = useCallback((next: AnalyticsView) => setSearch(searchFromView(next)), [setSearch]);
  const choosePreset = (preset: RangePreset) =>
    setView(
      preset === 'custom' ? { ...view, preset } : { ...view, preset, ...presetRange(Number(preset), today) },
    );
  const data = analytics.data;
  const charts = useMemo(
    () =>
      data
        ? {
            passRate: passRateChart(data.daily, days),
            duration: durationChart(data.durations, days),
            cost: costChart(data.model_cost, days),
            design: designChart(data.design_scores),
          }
        : null,
    [data, days],
  );
  const file = (name: string) => csvFileName(name, view.from, view.to);
  const sum = data ? totals(data) : null;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-5">
      <ScreenHeader
        icon={BarChart3}
        title="Analytics"
        description={
          <p className="mt-1 text-sm text-slate-600">
            Pass rates, durations, cost, design scores and flaky tests over a range of days.
          </p>
        }
        aside={null}
      >
        <div className="mt-4 flex flex-wrap items-end gap-3 border-t border-slate-100 pt-4">
          <SelectField
            label="Project"
            className="min-w-0 flex-1 basis-56"
            value={view.project}
            onChange={(event) => setView({ ...view, project: event.target.value })}
            options={[
              { value: '', label: 'All projects' },
              ...projects.map((p) => ({ value: p.id, label: p.name })),
            ]}
          />
          <div>
            <span className="mb-1.5 block text-sm font-medium text-slate-700" aria-hidden>
              Range
            </span>
            <SegmentedControl
              legend="Range"
              name="analytics-range"
              size="compact"
              value={view.preset}
              onChange={choosePreset}
              options={PRESETS}
            />
          </div>
          {view.preset === 'custom' && (
            <>
              <label className="block text-sm font-medium text-slate-700">
                From
                <input
                  type="date"
                  value={view.from}
                  max={view.to}
                  onChange={(event) => event.target.value && setView({ ...view, from: event.target.value })}
                  className={DATE_INPUT}
                />
              </label>
              <label className="block text-sm font-medium text-slate-700">
                To
                <input
                  type="date"
                  value={view.to}
                  min={view.from}
                  onChange={(event) => event.target.value && setView({ ...view, to: event.target.value })}
                  className={DATE_INPUT}
                />
              </label>
            </>
          )}
        </div>
      </ScreenHeader>

      {analytics.isPending ? (
        <div className="flex justify-center py-16 text-indigo-600">
          <Spinner label="Loading analytics" />
        </div>
      ) : analytics.isError || !data || !charts || !sum ? (
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {errorText(analytics.error, 'The analytics could not be loaded')}
        </p>
      ) : (
        <div className="space-y-5" data-testid="analytics" aria-busy={analytics.isFetching}>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Tile label="Runs" value={String(sum.runs)} testId="total-runs" />
            <Tile
              label="Pass rate"
              value={sum.passRate === null ? '–' : `${sum.passRate}%`}
              testId="total-pass-rate"
            />
            <Tile label="Flaky tests" value={String(sum.flaky)} testId="total-flaky" />
            <Tile label="Model cost" value={`$${sum.cost.toFixed(2)}`} testId="total-cost" />
          </dl>
          <div className="grid gap-5 lg:grid-cols-2">
            <ChartCard
              title="Pass rate and runs per day"
              icon={Activity}
              testId="chart-pass-rate"
              chart={{
                data: charts.passRate,
                summary: `Pass rate and run count per day from ${view.from} to ${view.to}; the numbers are in the table below.`,
                leftLabel: 'Pass rate (%)',
                rightLabel: 'Runs',
                leftMax: 100,
              }}
              table={passRateTable(data.daily)}
              fileName={file('pass-rate')}
              empty="No runs in this range"
            />
            <ChartCard
              title="Duration per suite"
              subtitle="Median (solid) and p95 (dashed)"
              icon={Timer}
              testId="chart-durations"
              chart={{
                data: charts.duration,
                summary:
                  'Median and 95th percentile run duration per day of the busiest suites; every suite is in the table below.',
                leftLabel: 'Seconds',
              }}
              table={durationTable(data.durations)}
              fileName={file('durations')}
              empty="No finished runs in this range"
            />
            <ChartCard
              title="Model cost per day"
              subtitle="Estimated, per engine"
              icon={CircleDollarSign}
              testId="chart-cost"
              chart={{
                data: charts.cost,
                summary:
                  'Estimated model cost in US dollars per day and engine; the numbers are in the table below.',
                leftLabel: 'US dollars',
              }}
              table={costTable(data.model_cost)}
              fileName={file('model-cost')}
              empty="No model calls in this range"
            />
            <ChartCard
              title="Design scores per site"
              icon={PenTool}
              testId="chart-design"
              chart={{
                data: charts.design,
                summary:
                  'Design comparison scores (0 to 100) over time per site; the numbers are in the table below.',
                leftLabel: 'Score (%)',
                leftMax: 100,
                instants: true,
              }}
              table={designTable(data.design_scores)}
              fileName={file('design-scores')}
              empty="No design comparisons in this range"
            />
          </div>
          <RankedList
            title="Flaky tests"
            subtitle="By flip rate within a suite version; passes on retry count"
            icon={Shuffle}
            testId="list-flaky"
            table={flakyTable(data.flaky)}
            fileName={file('flaky-tests')}
            empty="No flaky tests in this range"
            render={(row, column, cell) => {
              if (column !== 7) return displayCell(cell);
              const ids = data.flaky[row]?.run_ids ?? [];
              return (
                <span className="flex flex-wrap gap-1.5">
                  {ids.map((id, i) => (
                    <Link
                      key={id}
                      to={runHref(id)}
                      className="text-indigo-700 underline-offset-2 hover:underline"
                    >
                      run {i + 1}
                    </Link>
                  ))}
                </span>
              );
            }}
          />
          <div className="grid gap-5 lg:grid-cols-2">
            <RankedList
              title="Slowest tests"
              subtitle="By median time"
              icon={Turtle}
              testId="list-slowest"
              table={slowestTable(data.slowest_tests)}
              fileName={file('slowest-tests')}
              empty="No finished tests in this range"
            />
            <RankedList
              title="Most frequent failing steps"
              subtitle="Where failed cases stopped"
              icon={Footprints}
              testId="list-failing-steps"
              table={failingStepsTable(data.failing_steps)}
              fileName={file('failing-steps')}
              empty="No failed steps in this range"
              render={(_row, column, cell) =>
                column === 4 && typeof cell === 'string' ? (
                  <Link to={runHref(cell)} className="text-indigo-700 underline-offset-2 hover:underline">
                    open run
                  </Link>
                ) : (
                  displayCell(cell)
                )
              }
            />
          </div>
          <FailureGroupsPanel query={{ project_id: view.project || undefined, since: view.from }} />
        </div>
      )}
    </div>
  );
}
