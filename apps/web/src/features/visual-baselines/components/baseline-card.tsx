import type { VisualBaseline } from '@argus/protocol';
import { History, SlidersHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import { SmallButton } from '../../../components/small-button';
import { approvedText, checkTitle, masksText, thresholdText, viewportText } from '../model/baselines';
import { BaselineHistory } from './baseline-history';
import { SettingsDialog } from './settings-dialog';

/**
 * One check's current baseline: its picture (opens full size), case and check, viewport and browser,
 * who approved it and when, its threshold and masks; its history (with Restore) and its settings
 * (masks and threshold; read-only for a viewer).
 */
export function BaselineCard({
  baseline,
  canEdit,
  canRestore,
  onImageError,
}: {
  baseline: VisualBaseline;
  canEdit: boolean;
  canRestore: boolean;
  onImageError: () => void;
}) {
  const titleId = useId();
  const historyId = useId();
  const [showHistory, setShowHistory] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const title = checkTitle(baseline.check_name);
  const name = `${baseline.case_name}, ${title}`;
  return (
    <li className="min-w-0">
      <article
        aria-labelledby={titleId}
        className="flex h-full flex-col rounded-xl border border-slate-200 bg-white shadow-xs"
        data-testid="visual-baseline"
      >
        <a
          href={baseline.image}
          target="_blank"
          rel="noreferrer"
          className="block overflow-hidden rounded-t-xl border-b border-slate-200 bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <img
            src={baseline.image}
            alt={`The baseline of ${name} (opens full size)`}
            onError={onImageError}
            decoding="async"
            className="block aspect-[16/10] w-full object-cover object-top"
          />
        </a>
        <div className="flex flex-1 flex-col gap-1 p-4">
          <h3 id={titleId} className="text-sm font-semibold break-words text-slate-900">
            {baseline.case_name}
            <span className="font-normal text-slate-600"> · {title}</span>
          </h3>
          <p className="text-xs text-slate-600">
            Viewport {viewportText(baseline.viewport)} · {baseline.browser}
          </p>
          <p className="text-xs break-words text-slate-700" data-testid="visual-baseline-approved">
            {approvedText(baseline)}
          </p>
          <p className="text-xs font-medium text-slate-800" data-testid="visual-baseline-settings">
            {thresholdText(baseline.threshold)} · {masksText(baseline)}
          </p>
          <div className="mt-auto flex flex-wrap items-center gap-2 pt-3">
            <SmallButton
              variant="ghost"
              icon={History}
              aria-expanded={showHistory}
              aria-controls={showHistory ? historyId : undefined}
              aria-label={`${showHistory ? 'Hide history' : 'History'} of ${name}`}
              onClick={() => setShowHistory((open) => !open)}
            >
              {showHistory ? 'Hide history' : 'History'}
            </SmallButton>
            <SmallButton
              variant="secondary"
              icon={SlidersHorizontal}
              aria-label={`Settings of ${name}`}
              onClick={() => setSettingsOpen(true)}
            >
              Settings
            </SmallButton>
          </div>
          {showHistory && (
            <div id={historyId} className="mt-3">
              <BaselineHistory
                baselineId={baseline.id}
                title={name}
                canRestore={canRestore}
                onImageError={onImageError}
              />
            </div>
          )}
        </div>
      </article>
      {settingsOpen && (
        <SettingsDialog
          baseline={baseline}
          readOnly={!canEdit}
          onClose={() => setSettingsOpen(false)}
          onImageError={onImageError}
        />
      )}
    </li>
  );
}
