import type { StorageUsage } from '@argus/protocol';
import { AlertTriangle, HardDrive } from 'lucide-react';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { useStorage } from '../api/get-storage';
import {
  formatBytes,
  formatInstant,
  quotaPercent,
  quotaText,
  retentionText,
  sweepText,
} from '../model/storage';

function Part({ label, bytes, testId }: { label: string; bytes: number; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 px-3 py-2">
      <dt className="min-w-0 text-slate-600">{label}</dt>
      <dd className="shrink-0 font-medium text-slate-900 tabular-nums" data-testid={testId}>
        {formatBytes(bytes)}
      </dd>
    </div>
  );
}

function Usage({ usage }: { usage: StorageUsage }) {
  const percent = quotaPercent(usage);
  const used = quotaText(usage);
  const sweep = usage.last_sweep;
  const history = `${usage.runs} test ${usage.runs === 1 ? 'run' : 'runs'} and ${usage.comparisons} design ${usage.comparisons === 1 ? 'comparison' : 'comparisons'} kept`;
  return (
    <div className="space-y-4">
      <div>
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <span className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="storage-total">
            {formatBytes(usage.total_bytes)}
            <span className="ml-1.5 text-sm font-normal text-slate-500">
              {usage.quota_bytes === null ? 'stored' : `of ${formatBytes(usage.quota_bytes)}`}
            </span>
          </span>
          {used && <span className="text-sm text-slate-600 tabular-nums">{used}</span>}
        </div>
        {percent !== null && (
          <ProgressBar
            className="mt-2"
            label="Storage used of your quota"
            value={percent}
            max={100}
            percent={percent}
            barClassName={percent >= 90 ? 'bg-red-600' : percent >= 75 ? 'bg-amber-500' : 'bg-indigo-600'}
            testId="storage-bar"
          />
        )}
      </div>
      <dl className="divide-y divide-slate-200 rounded-xl bg-slate-50 text-sm ring-1 ring-slate-200 ring-inset">
        <Part label="Test run screenshots" bytes={usage.screenshot_bytes} testId="storage-screenshots" />
        <Part label="Design comparison images" bytes={usage.comparison_bytes} testId="storage-comparisons" />
        <Part label="Uploaded designs" bytes={usage.upload_bytes} testId="storage-uploads" />
      </dl>
      <p className="text-sm text-slate-600" data-testid="storage-history">
        {history}
        {usage.oldest_run_at ? `; the oldest run is from ${formatInstant(usage.oldest_run_at)}.` : '.'}
      </p>
      <div className="rounded-xl border border-slate-200 px-3 py-2.5 text-sm" data-testid="storage-sweep">
        <p className="font-medium text-slate-800">
          {sweep ? `Last clean-up: ${formatInstant(sweep.finished_at)}` : 'No clean-up has run yet'}
        </p>
        <p className="mt-0.5 text-slate-600">
          {sweep
            ? sweepText(sweep)
            : usage.retention_days === 0
              ? 'Nothing is removed automatically on this server.'
              : `Runs and comparisons older than ${usage.retention_days} ${usage.retention_days === 1 ? 'day' : 'days'} are removed, with their screenshots.`}
        </p>
      </div>
    </div>
  );
}

/** What the user keeps stored, against their quota, and how long this server keeps history. */
export function StoragePanel() {
  const storage = useStorage();
  return (
    <Panel
      title="Storage"
      icon={HardDrive}
      subtitle={storage.data ? `${retentionText(storage.data.retention_days)}.` : undefined}
      testId="storage-panel"
    >
      {storage.data ? (
        <Usage usage={storage.data} />
      ) : storage.isError ? (
        <p className="flex items-start gap-2 text-sm text-red-700" role="alert">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {errorText(storage.error, 'Your storage could not be loaded')}
        </p>
      ) : (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner className="size-6" label="Loading storage" />
        </div>
      )}
    </Panel>
  );
}
