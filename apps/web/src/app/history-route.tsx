import type { TestRunDetail } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import {
  ExecutionLog,
  getRunScreenshots,
  ScreenshotGallery,
  type ScreenshotItem,
  ScreenshotViewer,
  TestResultsList,
} from '../features/automation';
import { HistoryScreen, RunScreen, type RunTab } from '../features/history';
import { RunRepairs, RunRepairsTabLabel } from '../features/repairs';
import { RunVisualReview, RunVisualReviewLabel } from '../features/visual-review';
import { downloadUrl } from '../lib/download';
import { useProjectList } from '../lib/projects/project-list';
import { storedLog, storedResults, storedScreenshots } from './stored-run';

// Test History with what other features own, handed in (features do not import each other): the
// user's projects for the filters, and the automation screen's results list, step log and
// screenshots for a run's page (docs/HISTORY.md).

/** Spacing of 'Download All', as the automation screen spaces it (docs/PRODUCT.md#screenshots). */
const DOWNLOAD_SPACING_MS = 100;
const RENEW_INTERVAL_MS = 30_000;

/** /history and /test-history. */
export function HistoryWithProjects() {
  const projects = useProjectList();
  return <HistoryScreen projects={projects.data ?? []} />;
}

/** A stored run's results, steps and screenshots, drawn by the automation screen's components. */
function RunArtifacts({ run }: { run: TestRunDetail }) {
  const results = useMemo(() => storedResults(run), [run]);
  const log = useMemo(() => storedLog(run), [run]);
  const refs = useQuery({
    queryKey: ['history', 'screenshots', run.id],
    queryFn: ({ signal }) => getRunScreenshots(run.id, signal),
  });
  const shots = useMemo(() => storedScreenshots(refs.data ?? [], log), [refs.data, log]);
  const [open, setOpen] = useState<number | null>(null);
  const download = useCallback((shot: ScreenshotItem) => downloadUrl(shot.src, shot.fileName), []);
  const downloadAll = useCallback(() => {
    shots.forEach((shot, index) => {
      setTimeout(() => downloadUrl(shot.src, shot.fileName), index * DOWNLOAD_SPACING_MS);
    });
  }, [shots]);
  // A link that no longer opens (it expired): the list is read again, with fresh links; at most
  // once in a while, so an image that is really gone does not ask again and again.
  const { refetch } = refs;
  const renewedAt = useRef(0);
  const renew = useCallback(() => {
    if (Date.now() - renewedAt.current < RENEW_INTERVAL_MS) return;
    renewedAt.current = Date.now();
    void refetch();
  }, [refetch]);
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <TestResultsList results={results} />
      <ScreenshotGallery
        screenshots={shots}
        onOpen={setOpen}
        onDownload={download}
        onDownloadAll={downloadAll}
        onImageError={renew}
      />
      <div className="lg:col-span-2">
        <ExecutionLog entries={log} />
      </div>
      {open !== null && shots[open] && (
        <ScreenshotViewer
          screenshots={shots}
          index={open}
          onIndexChange={setOpen}
          onClose={() => setOpen(null)}
          onDownload={download}
          onImageError={renew}
        />
      )}
    </div>
  );
}

/**
 * The run page's other views: its visual checks to review (?tab=review, 'Review (3)', a project's run;
 * issue 40) and its repairs (?tab=repairs, a saved suite's run; issue 39), from their features.
 */
const RUN_TABS: RunTab[] = [
  {
    id: 'review',
    Label: RunVisualReviewLabel,
    Panel: RunVisualReview,
    shownFor: (run) => run.project_id !== null,
  },
  { id: 'repairs', Label: RunRepairsTabLabel, Panel: RunRepairs, shownFor: (run) => run.suite_id !== null },
];

/** /history/runs/:id, keyed by the id so another run starts afresh. */
export function HistoryRun() {
  const { id = '' } = useParams();
  return <RunScreen key={id} runId={id} Artifacts={RunArtifacts} tabs={RUN_TABS} />;
}
