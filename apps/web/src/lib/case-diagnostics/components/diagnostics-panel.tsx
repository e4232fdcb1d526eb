import type { StoredTestResult } from '@argus/protocol';
import { FileDown } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../api-error';
import { cn } from '../../cn';
import { useDownloadHar } from '../api/download-har';
import { useCaseDiagnostics } from '../api/get-case-diagnostics';
import { artifactFileName } from '../model/artifacts';
import { type CaseStep, type FindingTab, namedByFinding } from '../model/case-steps';
import { consoleGroups, type EntryFilters, NO_FILTERS, networkGroups } from '../model/entries';
import { ConsoleGroups, NetworkGroups } from './entry-groups';

type Tab = FindingTab;

/** A page-health finding whose entries were asked for (`asked` counts the asks: the same one again scrolls again). */
export interface FindingFocus {
  tab: FindingTab;
  /** The step's error, which quotes the entries it found. */
  error: string;
  asked: number;
}
const TABS: { value: Tab; label: string }[] = [
  { value: 'console', label: 'Console' },
  { value: 'network', label: 'Network' },
];

function FilterBox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="inline-flex items-center gap-1.5 text-xs font-medium text-slate-700">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
      />
      {label}
    </label>
  );
}

/**
 * A case's console and network (docs/DIAGNOSTICS.md), as two tabs, each entry under the step that was
 * running; filters for errors and failed requests; the HAR. Loaded when mounted: the case view mounts
 * it only once its console and network are opened.
 */
export function DiagnosticsPanel({
  runId,
  result,
  steps,
  focus = null,
}: {
  runId: string;
  result: Pick<StoredTestResult, 'id' | 'test_case_name' | 'failure'>;
  steps: readonly CaseStep[];
  /** A finding's entries to show: its tab, its filter on, the first one it names in view. */
  focus?: FindingFocus | null;
}) {
  const query = useCaseDiagnostics(runId, result.id, true);
  const har = useDownloadHar();
  const [tab, setTab] = useState<Tab>(result.failure?.kind === 'app_error' ? 'network' : 'console');
  const [filters, setFilters] = useState<EntryFilters>(NO_FILTERS);
  const baseId = useId();
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ console: null, network: null });
  const failingStep = result.failure?.step_index ?? null;
  const data = query.data;
  const groups = useMemo(
    () =>
      data
        ? {
            console: consoleGroups(data, steps, failingStep, filters),
            network: networkGroups(data, steps, failingStep, filters),
          }
        : null,
    [data, steps, failingStep, filters],
  );

  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focus) return;
    setTab(focus.tab);
    setFilters((f) => (focus.tab === 'console' ? { ...f, errorsOnly: true } : { ...f, failedOnly: true }));
  }, [focus]);
  // Once the entries are drawn, the first the finding names is brought into view and focused.
  useEffect(() => {
    if (!focus || !groups || tab !== focus.tab) return;
    const named = panelRef.current?.querySelector<HTMLElement>('[data-named="true"]');
    named?.scrollIntoView({ block: 'nearest' });
    named?.focus({ preventScroll: true });
  }, [focus, groups, tab]);
  const named = focus
    ? (entry: { text: string } | { url: string }) => namedByFinding(focus.error, entry)
    : undefined;

  // Arrow keys move between the tabs (one tab stop for the list, as WAI-ARIA's tabs pattern has it).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next: Tab = tab === 'console' ? 'network' : 'console';
    setTab(next);
    tabRefs.current[next]?.focus();
    event.preventDefault();
  };
  const downloadHar = () =>
    har.mutate(
      {
        runId,
        resultId: result.id,
        fileName: artifactFileName(result.test_case_name, 1, false, 'network.har'),
      },
      { onError: (error) => toast.error(errorText(error, 'The HAR could not be downloaded')) },
    );

  return (
    <div
      ref={panelRef}
      className="min-w-0 rounded-xl border border-slate-200 bg-white"
      data-testid="case-diagnostics-panel"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-3 py-2">
        <div role="tablist" aria-label="Console and network" className="flex gap-1" onKeyDown={onKeyDown}>
          {TABS.map((option) => {
            const selected = option.value === tab;
            const count = data ? data[option.value].length : null;
            return (
              <button
                key={option.value}
                ref={(node) => {
                  tabRefs.current[option.value] = node;
                }}
                type="button"
                role="tab"
                id={`${baseId}-${option.value}-tab`}
                aria-selected={selected}
                aria-controls={`${baseId}-${option.value}-panel`}
                tabIndex={selected ? 0 : -1}
                onClick={() => setTab(option.value)}
                className={cn(
                  'rounded-lg px-3 py-1.5 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600',
                  selected ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100',
                )}
              >
                {option.label}
                {count !== null && <span className="ml-1 font-normal tabular-nums">({count})</span>}
              </button>
            );
          })}
        </div>
        <SmallButton
          icon={FileDown}
          className="ml-auto"
          onClick={downloadHar}
          disabled={har.isPending}
          data-testid="download-har"
        >
          Download HAR
        </SmallButton>
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-${tab}-panel`}
        aria-labelledby={`${baseId}-${tab}-tab`}
        className="space-y-3 p-3"
      >
        {tab === 'console' ? (
          <FilterBox
            label="Errors only"
            checked={filters.errorsOnly}
            onChange={(errorsOnly) => setFilters((f) => ({ ...f, errorsOnly }))}
          />
        ) : (
          <FilterBox
            label="Failed requests only"
            checked={filters.failedOnly}
            onChange={(failedOnly) => setFilters((f) => ({ ...f, failedOnly }))}
          />
        )}
        {query.isError ? (
          <p className="text-xs text-red-700" role="alert">
            {errorText(query.error, 'The console and network could not be loaded')}
          </p>
        ) : !groups ? (
          <div className="flex justify-center py-4 text-indigo-600">
            <Spinner className="size-5" label="Loading the console and network" />
          </div>
        ) : tab === 'console' ? (
          <ConsoleGroups groups={groups.console} named={named} />
        ) : (
          <NetworkGroups groups={groups.network} named={named} />
        )}
        {data?.truncated && (
          <p className="text-xs text-slate-600">
            Only the latest entries were kept: the case logged more than the limit.
          </p>
        )}
      </div>
    </div>
  );
}
