import type { CssFix, Recommendation } from '@argus/protocol';
import { Copy, ListChecks, MapPin } from 'lucide-react';
import { forwardRef, type KeyboardEvent, useId, useRef } from 'react';
import { Badge } from '../../../components/badge';
import { EmptyState } from '../../../components/empty-state';
import { SmallButton } from '../../../components/small-button';
import { cn } from '../../../lib/cn';
import {
  codeSpans,
  formatPercent,
  humanize,
  type IssueView,
  type ResultsView,
  scoreTone,
} from '../model/results';
import { SCORE_TEXT } from './tones';

export type DetailTab = 'overview' | 'issues' | 'recommendations' | 'css';

const TABS: { value: DetailTab; label: string }[] = [
  { value: 'overview', label: 'Overview' },
  { value: 'issues', label: 'Issues' },
  { value: 'recommendations', label: 'Recommendations' },
  { value: 'css', label: 'CSS Fixes' },
];

/** A text with its backticked names shown as code. */
function Rich({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((part, index) =>
        part.code ? (
          <code key={index} className="rounded bg-slate-100 px-1 font-mono text-[0.92em] text-slate-800">
            {part.text}
          </code>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** Priority colours (docs/PRODUCT.md#comparison-results): high and critical red, medium orange, low green. */
function PriorityBadge({ priority }: { priority: string }) {
  const tone =
    priority === 'high' || priority === 'critical' ? 'red' : priority === 'low' ? 'green' : 'orange';
  return (
    <Badge tone={tone} data-testid="priority">
      {humanize(priority || 'medium')}
    </Badge>
  );
}

function Overview({ view }: { view: ResultsView }) {
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-3 gap-3">
        {[
          { label: 'Issues', value: view.issues.length },
          { label: 'Recommendations', value: view.recommendations.length },
          { label: 'CSS fixes', value: view.cssFixes.length },
        ].map((stat) => (
          <div
            key={stat.label}
            className="min-w-0 rounded-xl bg-slate-50 px-3 py-3 ring-1 ring-slate-100 ring-inset"
          >
            <dt className="truncate text-xs text-slate-500" title={stat.label}>
              {stat.label}
            </dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{stat.value}</dd>
          </div>
        ))}
      </dl>
      {view.viewports.length > 0 && (
        <section aria-label="Viewports">
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Viewports</h3>
          <ul className="mt-2 space-y-2">
            {view.viewports.map((viewport) => (
              <li
                key={viewport.name}
                className="rounded-xl border border-slate-200 px-3 py-2.5"
                data-testid="viewport-analysis"
              >
                <div className="flex items-baseline justify-between gap-2">
                  <span className="text-sm font-medium text-slate-800">
                    {humanize(viewport.name)}
                    {viewport.size && (
                      <span className="ml-2 text-xs font-normal text-slate-500">{viewport.size}</span>
                    )}
                  </span>
                  {viewport.similarity !== null && (
                    <span
                      className={cn(
                        'text-sm font-semibold tabular-nums',
                        SCORE_TEXT[scoreTone(viewport.similarity)],
                      )}
                    >
                      {formatPercent(viewport.similarity)}
                    </span>
                  )}
                </div>
                {viewport.notes.length > 0 && (
                  <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-600">
                    {viewport.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.minorDifferences.length > 0 && (
        <section aria-label="Minor differences">
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Minor differences</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
            {view.minorDifferences.map((text, index) => (
              <li key={index}>{text}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function Issues({
  issues,
  selected,
  onSelect,
}: {
  issues: readonly IssueView[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  if (issues.length === 0) return <EmptyState icon={ListChecks} title="No issues found" />;
  return (
    <ul className="space-y-2" aria-label="Issues">
      {issues.map((issue) => {
        const active = issue.id === selected;
        return (
          <li key={issue.id}>
            <button
              type="button"
              onClick={() => onSelect(issue.id)}
              aria-pressed={active}
              className={cn(
                'w-full rounded-xl border px-3 py-2.5 text-left transition',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                active
                  ? 'border-indigo-400 bg-indigo-50/60 ring-1 ring-indigo-300'
                  : 'border-slate-200 hover:border-slate-300 hover:bg-slate-50',
              )}
              data-testid="issue-item"
              data-issue-id={issue.id}
            >
              <div className="flex flex-wrap items-center gap-2">
                <PriorityBadge priority={issue.priority} />
                <Badge tone="slate">{humanize(issue.kind)}</Badge>
                <span className="min-w-0 flex-1 basis-40 text-sm font-medium text-slate-900">
                  <Rich text={issue.title} />
                </span>
              </div>
              {issue.description && (
                <p className="mt-1.5 text-xs text-slate-600">
                  <Rich text={issue.description} />
                </p>
              )}
              <div className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
                {issue.element && <code className="break-all text-slate-700">{issue.element}</code>}
                {issue.location && (
                  <span className="inline-flex items-center gap-1">
                    <MapPin className="size-3" aria-hidden />
                    {humanize(issue.location.viewport)} · {Math.round(issue.location.x)},{' '}
                    {Math.round(issue.location.y)} · {Math.round(issue.location.width)}×
                    {Math.round(issue.location.height)}
                  </span>
                )}
              </div>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function Recommendations({ items }: { items: readonly Recommendation[] }) {
  if (items.length === 0) return <EmptyState icon={ListChecks} title="No recommendations" />;
  return (
    <ul className="space-y-2" aria-label="Recommendations">
      {items.map((item, index) => (
        <li
          key={index}
          className="rounded-xl border border-slate-200 px-3 py-2.5"
          data-testid="recommendation"
        >
          <div className="flex flex-wrap items-center gap-2">
            <PriorityBadge priority={item.priority} />
            <Badge tone="indigo">{humanize(item.category)}</Badge>
            <span className="min-w-0 flex-1 basis-40 text-sm font-medium text-slate-900">
              <Rich text={item.suggestion} />
            </span>
          </div>
          {item.solution && (
            <p className="mt-1.5 text-sm text-slate-700">
              <Rich text={item.solution} />
            </p>
          )}
          {(item.impact || item.expected_improvement) && (
            <p className="mt-1 text-xs text-slate-500">
              {item.impact}
              {item.impact && item.expected_improvement ? ' · ' : ''}
              {item.expected_improvement && (
                <span className="font-medium text-emerald-700">{item.expected_improvement}</span>
              )}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

function CssFixes({ fixes, onCopy }: { fixes: readonly CssFix[]; onCopy: (css: string) => void }) {
  if (fixes.length === 0) return <EmptyState icon={ListChecks} title="No CSS fixes" />;
  return (
    <ul className="space-y-3" aria-label="CSS fixes">
      {fixes.map((fix, index) => (
        <li key={index} className="rounded-xl border border-slate-200" data-testid="css-fix">
          <div className="flex flex-wrap items-center gap-2 px-3 py-2">
            <div className="min-w-0 flex-1 basis-48 text-xs text-slate-600">
              <code className="font-semibold break-all text-slate-900">{fix.selector}</code>
              <p className="mt-0.5">
                {fix.property}:{' '}
                <span className="text-red-700 line-through decoration-red-300">
                  {fix.current_value ?? 'unset'}
                </span>{' '}
                → <span className="font-medium text-emerald-700">{fix.recommended_value}</span>
              </p>
            </div>
            <SmallButton
              icon={Copy}
              onClick={() => onCopy(fix.css_code)}
              aria-label={`Copy CSS for ${fix.selector} ${fix.property}`}
              data-testid="copy-css"
            >
              Copy
            </SmallButton>
          </div>
          <pre className="rounded-b-xl bg-slate-900 whitespace-pre-wrap break-all px-3 py-2.5 text-xs leading-relaxed text-slate-100">
            <code>{fix.css_code}</code>
          </pre>
        </li>
      ))}
    </ul>
  );
}

export interface DetailsTabsProps {
  view: ResultsView;
  tab: DetailTab;
  onTabChange: (tab: DetailTab) => void;
  selectedIssue: string | null;
  onSelectIssue: (id: string) => void;
  onCopyCss: (css: string) => void;
}

/** The detail panel (docs/PRODUCT.md#comparison-results): Overview, Issues, Recommendations, CSS Fixes (WAI-ARIA tabs, arrow keys move). */
export const DetailsTabs = forwardRef<HTMLElement, DetailsTabsProps>(function DetailsTabs(
  { view, tab, onTabChange, selectedIssue, onSelectIssue, onCopyCss },
  ref,
) {
  const base = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const counts: Record<DetailTab, number | null> = {
    overview: null,
    issues: view.issues.length,
    recommendations: view.recommendations.length,
    css: view.cssFixes.length,
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.value === tab);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % TABS.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    else return;
    event.preventDefault();
    const target = TABS[next];
    if (!target) return;
    onTabChange(target.value);
    tabRefs.current[next]?.focus();
  };
  return (
    <section
      ref={ref}
      id="comparison-details"
      className="min-w-0 scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-xs"
      aria-label="Comparison details"
      data-testid="comparison-details"
    >
      <div
        role="tablist"
        aria-label="Comparison details"
        className="flex gap-1 overflow-x-auto border-b border-slate-100 px-3 pt-3"
        onKeyDown={onKeyDown}
      >
        {TABS.map((t, index) => {
          const selected = t.value === tab;
          const count = counts[t.value];
          return (
            <button
              key={t.value}
              ref={(el) => {
                tabRefs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${t.value}`}
              aria-selected={selected}
              aria-controls={`${base}-panel-${t.value}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onTabChange(t.value)}
              className={cn(
                '-mb-px flex shrink-0 items-center gap-1.5 border-b-2 px-3 pb-2.5 pt-1 text-sm font-medium transition',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                selected
                  ? 'border-indigo-600 text-indigo-700'
                  : 'border-transparent text-slate-500 hover:text-slate-800',
              )}
            >
              {t.label}
              {count !== null && (
                <span
                  className={cn(
                    'rounded-full px-1.5 text-xs tabular-nums',
                    selected ? 'bg-indigo-100 text-indigo-700' : 'bg-slate-100 text-slate-600',
                  )}
                  aria-hidden
                >
                  {count}
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel-${tab}`}
        aria-labelledby={`${base}-tab-${tab}`}
        className="max-h-[640px] overflow-y-auto p-5 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600"
        data-testid={`details-${tab}`}
      >
        {tab === 'overview' && <Overview view={view} />}
        {tab === 'issues' && (
          <Issues issues={view.issues} selected={selectedIssue} onSelect={onSelectIssue} />
        )}
        {tab === 'recommendations' && <Recommendations items={view.recommendations} />}
        {tab === 'css' && <CssFixes fixes={view.cssFixes} onCopy={onCopyCss} />}
      </div>
    </section>
  );
});
