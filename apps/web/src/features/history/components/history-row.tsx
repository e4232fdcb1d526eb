import type { HistoryItem } from '@argus/protocol';
import { Bot, MessagesSquare, PenTool } from 'lucide-react';
import { Link } from 'react-router';
import {
  countsText,
  formatCost,
  formatSeconds,
  formatWhen,
  KIND_TEXT,
  relativeWhen,
  suiteLabel,
  triggerText,
} from '../model/format';
import { itemPath } from '../model/links';
import { OutcomeBadge, VisualReviewBadge } from './outcome-badge';

const KIND_ICON = { run: Bot, comparison: PenTool, conversation: MessagesSquare } as const;

/** One line of the history: outcome, title (its link), counts, duration, engine, cost, where, when. */
export function HistoryRow({ item, now }: { item: HistoryItem; now: number }) {
  const Icon = KIND_ICON[item.kind];
  const href = itemPath(item);
  const title = item.kind === 'run' ? suiteLabel(item) : item.title;
  const counts = item.kind === 'run' ? countsText(item) : null;
  // A cost is shown when the model was called (the built-in engine's $0 says nothing).
  const cost = item.model_calls || item.cost_usd ? formatCost(item.cost_usd) : null;
  const measures = [
    item.duration_seconds !== null ? formatSeconds(item.duration_seconds) : null,
    item.kind === 'run' ? cost : null,
  ].filter((m): m is string => m !== null);
  const where = [item.project_name, item.environment_name].filter(Boolean).join(' · ');
  const details = [
    KIND_TEXT[item.kind],
    item.engine,
    triggerText(item.trigger),
    item.kind === 'comparison' && item.score !== null ? `score ${Math.round(item.score)}%` : null,
  ].filter(Boolean);
  return (
    <li
      className="relative flex flex-wrap items-start gap-x-3 gap-y-1.5 px-4 py-3 hover:bg-slate-50 sm:flex-nowrap sm:px-5"
      data-testid="history-item"
      data-kind={item.kind}
      data-status={item.status}
    >
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1 basis-52">
        <div className="flex flex-wrap items-center gap-2">
          <OutcomeBadge outcome={item.status} />
          <VisualReviewBadge toReview={item.visual_to_review} />
          {href ? (
            <Link
              to={href}
              className="min-w-0 text-sm font-semibold break-words text-slate-900 after:absolute after:inset-0 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
              data-testid="history-item-link"
            >
              {title}
            </Link>
          ) : (
            <span className="min-w-0 text-sm font-semibold break-words text-slate-900">{title}</span>
          )}
        </div>
        <p className="mt-1 text-xs break-words text-slate-600">
          {details.join(' · ')}
          {where && <> · {where}</>}
        </p>
        {item.url && <p className="truncate text-xs text-slate-500">{item.url}</p>}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-x-2 gap-y-0.5 pl-11 text-xs text-slate-600 tabular-nums sm:flex-col sm:items-end sm:pl-0 sm:text-right">
        {counts && (
          <span className="font-medium text-slate-800" data-testid="history-item-counts">
            {counts}
          </span>
        )}
        {measures.length > 0 && <span>{measures.join(' · ')}</span>}
        <time dateTime={item.created_at} title={formatWhen(item.created_at)}>
          {relativeWhen(item.created_at, now)}
        </time>
      </div>
    </li>
  );
}
