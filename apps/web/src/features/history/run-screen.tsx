import type { HistoryItem, TestRunDetail } from '@argus/protocol';
import { ArrowLeft, Bot, ListChecks } from 'lucide-react';
import { type ComponentType, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Panel } from '../../components/panel';
import { ScreenHeader } from '../../components/screen-header';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { useRunComparison } from './api/get-run-comparison';
import { useTestRun } from './api/get-test-run';
import { CaseCard } from './components/case-card';
import { ComparisonPanel } from './components/comparison-panel';
import { OutcomeBadge } from './components/outcome-badge';
import { countsText, formatCost, formatSeconds, formatWhen, suiteLabel, triggerText } from './model/format';
import { runCases } from './model/run-cases';

export interface RunScreenProps {
  runId: string;
  /**
   * The run's results, steps, screenshots and logs, drawn by the automation screen's own components
   * (app/ composes them in; features do not import each other).
   */
  Artifacts: ComponentType<{ run: TestRunDetail }>;
  /**
   * Other views of the run, each a tab opened by `?tab=<id>` (its visual checks to review, issue 40;
   * its repairs, issue 39): its name ('Review (3)'), its panel, and which runs have it; composed in by
   * app/ from their features.
   */
  tabs?: RunTab[];
}

export interface RunTab {
  id: string;
  Label: ComponentType<{ runId: string }>;
  Panel: ComponentType<{ runId: string }>;
  /** Whether a run has this view (a saved suite's run has repairs; a project's, visual checks). */
  shownFor: (run: HistoryItem) => boolean;
}

/** The page's views as links (`?tab=repairs`), so a review can be linked to and reloaded. */
function RunTabs({ runId, tabs, current }: { runId: string; tabs: RunTab[]; current: RunTab | undefined }) {
  const tab = (on: boolean) =>
    cn(
      'rounded-lg px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600',
      on ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100',
    );
  return (
    <nav aria-label="Run views" className="flex flex-wrap gap-2" data-testid="run-tabs">
      <Link to={{ search: '' }} replace className={tab(!current)} aria-current={current ? undefined : 'page'}>
        Cases and steps
      </Link>
      {tabs.map((view) => (
        <Link
          key={view.id}
          to={{ search: `?tab=${view.id}` }}
          replace
          className={tab(view === current)}
          aria-current={view === current ? 'page' : undefined}
        >
          <view.Label runId={runId} />
        </Link>
      ))}
    </nav>
  );
}

function Fact({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm font-medium break-words text-slate-800">{value ?? '–'}</dd>
    </div>
  );
}

function RunFacts({ run, detail }: { run: HistoryItem; detail: TestRunDetail | undefined }) {
  const cost = formatCost(run.cost_usd);
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 border-t border-slate-100 pt-4 sm:grid-cols-3 lg:grid-cols-4">
      <Fact label="Suite" value={suiteLabel(run)} />
      <Fact label="Project" value={run.project_name} />
      <Fact label="Environment" value={run.environment_name} />
      <Fact label="Trigger" value={triggerText(run.trigger)} />
      <Fact label="Engine" value={run.engine ?? detail?.engine ?? null} />
      <Fact
        label="Model cost"
        value={
          run.model_calls || run.cost_usd
            ? `${cost ?? '–'}${run.model_calls ? ` · ${run.model_calls} calls` : ''}`
            : 'No model calls'
        }
      />
      <Fact label="Duration" value={formatSeconds(run.duration_seconds)} />
      <Fact label="When" value={formatWhen(run.created_at)} />
      <Fact label="Results" value={countsText(run)} />
    </dl>
  );
}

/** A run's page (docs/HISTORY.md): what ran, how it compares with the run before, each case's history. */
export function RunScreen({ runId, Artifacts, tabs = [] }: RunScreenProps) {
  const [search] = useSearchParams();
  const comparison = useRunComparison(runId);
  const detail = useTestRun(runId);
  const cases = useMemo(
    () => (comparison.data ? runCases(comparison.data.cases, detail.data?.test_results ?? []) : []),
    [comparison.data, detail.data],
  );
  const stored = useMemo(
    () => new Map((detail.data?.test_results ?? []).map((result) => [result.test_case_name, result])),
    [detail.data],
  );
  const back = (
    <Link
      to="/history"
      className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Test History
    </Link>
  );

  if (comparison.isPending) {
    return (
      <div className="mx-auto w-full max-w-6xl space-y-4">
        {back}
        <div className="flex justify-center py-16 text-indigo-600">
          <Spinner label="Loading the run" />
        </div>
      </div>
    );
  }
  if (comparison.isError) {
    return (
      <div className="mx-auto w-full max-w-6xl space-y-4">
        {back}
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {errorText(comparison.error, 'The run could not be loaded')}
        </p>
      </div>
    );
  }
  const { run } = comparison.data;
  // Only a saved suite's run has repairs (docs/REPAIRS.md#verdicts), only a project's run visual checks.
  const shown = tabs.filter((view) => view.shownFor(run));
  const current = shown.find((view) => view.id === search.get('tab'));
  return (
    <div className="mx-auto w-full max-w-6xl space-y-5" data-testid="run-page">
      {back}
      <ScreenHeader
        icon={Bot}
        title={suiteLabel(run)}
        titleClassName="basis-60"
        description={run.url ? <p className="mt-1 truncate text-sm text-slate-600">{run.url}</p> : null}
        aside={<OutcomeBadge outcome={run.status} className="text-sm" />}
      >
        <RunFacts run={run} detail={detail.data} />
      </ScreenHeader>
      {shown.length > 0 && <RunTabs runId={runId} tabs={shown} current={current} />}
      {current ? (
        <current.Panel runId={runId} />
      ) : (
        <>
          <ComparisonPanel comparison={comparison.data} />
          <Panel
            title="Cases"
            icon={ListChecks}
            subtitle="Recent results, failures and step changes per case"
            testId="run-cases"
          >
            {cases.length === 0 ? (
              <p className="text-sm text-slate-600">This run has no recorded cases.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {cases.map((item) => (
                  <CaseCard key={item.name} item={item} runId={runId} result={stored.get(item.name)} />
                ))}
              </ul>
            )}
          </Panel>
          {detail.isError ? (
            <p className="text-sm text-red-700" role="alert">
              {errorText(detail.error, 'The run’s steps could not be loaded')}
            </p>
          ) : detail.data ? (
            <Artifacts run={detail.data} />
          ) : (
            <div className="flex justify-center py-6 text-indigo-600">
              <Spinner label="Loading the run’s steps" />
            </div>
          )}
        </>
      )}
    </div>
  );
}
