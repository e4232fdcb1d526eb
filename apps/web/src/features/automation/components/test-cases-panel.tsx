import type { ClauseCoverage, ExplorationSummary, ModelUsage, TestCase } from '@argus/protocol';
import {
  AlertTriangle,
  CheckCircle2,
  Cpu,
  FolderInput,
  ListChecks,
  Loader2,
  Play,
  PlayCircle,
  Trash2,
  XCircle,
} from 'lucide-react';
import { Fragment, memo, type ReactNode, useId } from 'react';
import { Badge } from '../../../components/badge';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { RetriesSelect } from '../../../components/retries-select';
import { SmallButton } from '../../../components/small-button';
import { cn } from '../../../lib/cn';
import { useCan } from '../../../lib/organization';
import { isCustomCase } from '../model/custom-case';
import { priorityLabel, priorityTone, stepPreview } from '../model/priority';
import { resultLabel, type TestResultItem } from '../model/results';
import { formatTokenSplit, usageParts } from '../model/usage';
import { CommandCoverage } from './command-coverage';
import { CustomCaseForm } from './custom-case-form';
import { ExplorationSummaryNote } from './exploration-summary';

export interface TestCasesPanelProps {
  testCases: readonly TestCase[];
  engine: string | null;
  /** What writing the cases cost in model calls (null for the built-in engine). */
  generationUsage?: ModelUsage | null;
  /** Command mode: what each clause of the command got. */
  commandCoverage?: readonly ClauseCoverage[] | null;
  /** What the generation explored by acting on the app, and what its budget left out. */
  exploration?: ExplorationSummary | null;
  results: readonly TestResultItem[];
  runningTests: readonly string[];
  busy: boolean;
  generating: boolean;
  onRunAll: () => void;
  onRunOne: (testCase: TestCase) => void;
  /** How many times a failed case runs again (docs/HISTORY.md#retries). */
  retries: number;
  onRetriesChange: (retries: number) => void;
  /** The page custom cases run against (the generated cases' page, or the URL typed above). */
  url: string | null;
  onAddCustom: (testCase: TestCase) => Promise<boolean>;
  onRemove: (testName: string) => void;
  /** Opens the save form (when the app has projects and it is not open): a button beside "Add custom test". */
  onSaveToProject?: () => void;
  /** The save form when open, or what was saved last: shown above the cases. */
  saveSlot?: ReactNode;
}

function ResultMark({ result, running }: { result: TestResultItem | undefined; running: boolean }) {
  if (running)
    return <Loader2 className="size-4 shrink-0 animate-spin text-indigo-500" aria-label="Running" />;
  if (!result) return null;
  if (result.status === 'flaky')
    return <AlertTriangle className="size-4 shrink-0 text-amber-600" aria-label={resultLabel(result)} />;
  return result.status === 'passed' ? (
    <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-label="Passed" />
  ) : (
    <XCircle className="size-4 shrink-0 text-red-600" aria-label="Failed" />
  );
}

/** One case; memoised, so live updates elsewhere do not redraw the list. */
const TestCaseCard = memo(function TestCaseCard({
  testCase,
  result,
  running,
  busy,
  onRun,
  onRemove,
}: {
  testCase: TestCase;
  result: TestResultItem | undefined;
  running: boolean;
  busy: boolean;
  onRun: (testCase: TestCase) => void;
  onRemove: (testName: string) => void;
}) {
  // Running needs the runner role in the current organization (the permission table).
  const mayRun = useCan('run_single_test');
  const { shown, more } = stepPreview(testCase.steps);
  const tone = priorityTone(testCase.priority);
  return (
    <li
      className={cn(
        'rounded-xl border p-4 transition',
        running ? 'border-indigo-300 bg-indigo-50/40' : 'border-slate-200 hover:border-slate-300',
      )}
      data-testid="test-case"
    >
      <div className="flex items-start gap-2">
        <h3 className="min-w-0 flex-1 text-sm font-semibold break-words text-slate-900">
          {testCase.test_name}
        </h3>
        <ResultMark result={result} running={running} />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <Badge tone="slate">{testCase.category || 'General'}</Badge>
        <Badge tone={tone} data-testid="priority" data-tone={tone}>
          {priorityLabel(testCase.priority)}
        </Badge>
      </div>
      {testCase.description && (
        <p className="mt-2 text-xs leading-relaxed break-words text-slate-600">{testCase.description}</p>
      )}
      {shown.length > 0 && (
        <ol className="mt-3 space-y-1 text-xs text-slate-700">
          {shown.map((step, stepNumber) => (
            <li key={`${stepNumber}-${step}`} className="flex gap-2">
              <span className="w-4 shrink-0 text-right font-mono text-slate-500">{stepNumber + 1}.</span>
              <span className="min-w-0 break-words">{step}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="mt-3 flex items-center justify-between gap-2">
        <span className="text-xs text-slate-500">{more}</span>
        <div className="flex items-center gap-1.5">
          {isCustomCase(testCase) && (
            <SmallButton
              variant="ghost"
              icon={Trash2}
              onClick={() => onRemove(testCase.test_name)}
              disabled={busy}
              aria-label={`Remove ${testCase.test_name}`}
            >
              Remove
            </SmallButton>
          )}
          {mayRun && (
            <SmallButton
              icon={Play}
              onClick={() => onRun(testCase)}
              disabled={busy}
              aria-label={`Run ${testCase.test_name}`}
            >
              Run
            </SmallButton>
          )}
        </div>
      </div>
    </li>
  );
});

/** docs/PRODUCT.md#test-cases: the generated cases with their first 3 steps, a Run button each and Run All Tests. */
export function TestCasesPanel(props: TestCasesPanelProps) {
  const retriesId = useId();
  const mayRunAll = useCan('run_all_tests');
  const byName = new Map(props.results.map((result) => [result.testName, result]));
  const count = props.testCases.length;
  return (
    <Panel
      title="Generated Test Cases"
      icon={ListChecks}
      subtitle={count ? `${count} test case${count === 1 ? '' : 's'}` : undefined}
      testId="test-cases-panel"
      aside={
        mayRunAll && (
          <SmallButton
            variant="primary"
            icon={PlayCircle}
            onClick={props.onRunAll}
            disabled={props.busy || count === 0}
          >
            Run All Tests
          </SmallButton>
        )
      }
    >
      {props.saveSlot}
      {props.engine && (
        <p
          className="mb-4 flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset"
          data-testid="engine-label"
        >
          <Cpu className="mt-0.5 size-3.5 shrink-0 self-start text-slate-500" aria-hidden />
          <span className="min-w-0 break-words">
            Generated by <span className="font-semibold text-slate-800">{props.engine}</span>
            {props.generationUsage && (
              <span
                className="block text-slate-600 tabular-nums"
                data-testid="generation-usage"
                title={formatTokenSplit(props.generationUsage)}
              >
                Model:{' '}
                {usageParts(props.generationUsage).map((part, index) => (
                  <Fragment key={part}>
                    {index > 0 && ' · '}
                    <span className="whitespace-nowrap">{part}</span>
                  </Fragment>
                ))}
              </span>
            )}
          </span>
        </p>
      )}
      {props.commandCoverage && <CommandCoverage coverage={props.commandCoverage} />}
      {props.exploration && <ExplorationSummaryNote exploration={props.exploration} />}
      {count > 0 && (
        <div className="mb-4 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <RetriesSelect
            id={retriesId}
            value={props.retries}
            onChange={props.onRetriesChange}
            disabled={props.busy}
            testId="run-retries"
          />
          <span>A failed test runs again; one that then passes is marked flaky.</span>
        </div>
      )}
      <CustomCaseForm
        existingNames={props.testCases.map((c) => c.test_name)}
        url={props.url}
        disabled={props.busy}
        onAdd={props.onAddCustom}
        aside={
          props.onSaveToProject && (
            <SmallButton
              icon={FolderInput}
              onClick={props.onSaveToProject}
              disabled={props.generating || count === 0}
              className="flex-1 whitespace-nowrap"
            >
              Save to project
            </SmallButton>
          )
        }
      />
      {count === 0 ? (
        props.generating ? (
          <div className="flex items-center justify-center gap-2 py-8 text-sm text-slate-500">
            <Loader2 className="size-4 animate-spin text-indigo-500" aria-hidden />
            Generating test cases...
          </div>
        ) : (
          <EmptyState
            icon={ListChecks}
            title="No test cases yet"
            hint="Enter a website URL and generate test cases to see them here."
          />
        )
      ) : (
        <ol className="-mr-2 max-h-[40rem] space-y-3 overflow-y-auto pr-2">
          {props.testCases.map((testCase, index) => (
            <TestCaseCard
              key={`${testCase.id ?? index}-${testCase.test_name}`}
              testCase={testCase}
              result={byName.get(testCase.test_name)}
              running={props.runningTests.includes(testCase.test_name)}
              busy={props.busy}
              onRun={props.onRunOne}
              onRemove={props.onRemove}
            />
          ))}
        </ol>
      )}
    </Panel>
  );
}
