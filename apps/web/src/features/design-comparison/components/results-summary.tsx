import { BarChart3, Cpu, Download, Eye } from 'lucide-react';
import { Panel } from '../../../components/panel';
import { SmallButton } from '../../../components/small-button';
import { cn } from '../../../lib/cn';
import { formatPercent, type ResultsView, scoreTone } from '../model/results';
import { QUALITY_BADGE, SCORE_BAR, SCORE_TEXT } from './tones';

export interface ResultsSummaryProps {
  view: ResultsView;
  onViewDetails: () => void;
  onExport: () => void;
}

/** Results Summary (docs/PRODUCT.md#comparison-results): the overall similarity, the quality badge, View Details and Export. */
export function ResultsSummary({ view, onViewDetails, onExport }: ResultsSummaryProps) {
  const tone = scoreTone(view.similarity);
  return (
    <Panel
      title="Results Summary"
      icon={BarChart3}
      testId="comparison-summary"
      aside={
        <>
          <SmallButton icon={Eye} onClick={onViewDetails} data-testid="view-details">
            View Details
          </SmallButton>
          <SmallButton icon={Download} onClick={onExport} data-testid="export-results">
            Export
          </SmallButton>
        </>
      }
    >
      <div className="flex flex-wrap items-center gap-x-5 gap-y-3">
        <div>
          <p className="text-xs text-slate-500">Overall similarity</p>
          <p
            className={cn('text-4xl font-semibold tracking-tight tabular-nums', SCORE_TEXT[tone])}
            data-testid="overall-similarity"
          >
            {formatPercent(view.similarity)}
          </p>
        </div>
        <span
          className={cn(
            'inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset',
            QUALITY_BADGE[view.qualityTone],
          )}
          data-testid="quality-badge"
          data-tone={view.qualityTone}
        >
          {view.quality}
        </span>
      </div>
      {view.categories.length > 0 && (
        <ul className="mt-5 grid gap-x-6 gap-y-3 sm:grid-cols-2" aria-label="Category scores">
          {view.categories.map((category) => {
            const t = scoreTone(category.score);
            return (
              <li key={category.name} data-testid="category-score">
                <div className="flex items-baseline justify-between text-xs">
                  <span className="font-medium text-slate-700">{category.label}</span>
                  <span className={cn('font-semibold tabular-nums', SCORE_TEXT[t])}>
                    {formatPercent(category.score)}
                  </span>
                </div>
                <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                  <div
                    className={cn('h-full rounded-full', SCORE_BAR[t])}
                    style={{ width: formatPercent(category.score) }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {view.engine && (
        <p
          className="mt-4 flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset"
          data-testid="comparison-engine"
        >
          <Cpu className="mt-0.5 size-3.5 shrink-0 text-slate-500" aria-hidden />
          <span>
            Measured by: <span className="font-semibold text-slate-800">{view.engine}</span>
          </span>
        </p>
      )}
    </Panel>
  );
}
