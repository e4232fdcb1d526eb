import { AlertTriangle, Bug, WifiOff } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Banner } from '../../components/banner';
import { Panel } from '../../components/panel';
import { RunFailedCases } from '../../lib/case-diagnostics';
import { useCan } from '../../lib/organization';
import { AutomationHeader } from './components/automation-header';
import { ConfigPanel } from './components/config-panel';
import { ExecutionLog } from './components/execution-log';
import { ProgressPanel } from './components/progress-panel';
import { ResultsSummary } from './components/results-summary';
import { RunVideoPanel } from './components/run-video-panel';
import { type SavedToProject, SaveToProjectForm } from './components/save-to-project-form';
import { SavedToProjectNote } from './components/saved-to-project-note';
import { ScreenshotGallery } from './components/screenshot-gallery';
import { ScreenshotViewer } from './components/screenshot-viewer';
import { TestCasesPanel } from './components/test-cases-panel';
import { TestResultsList } from './components/test-results-list';
import { useAutomation } from './hooks/use-automation';
import { isBusy, statusText, statusTone } from './model/execution';
import { targetNote } from './model/project-target';
import { summarize } from './model/results';
import type { ScreenshotItem } from './model/screenshots';
import type { AutomationScreenProps } from './types';

/** The two banners' texts (docs/PRODUCT.md#automation). */
const AUTOMATION_BANNERS = {
  loggedOut: 'Please login to create and run automation tests',
  disconnected: 'Connection lost. Please refresh and try again.',
} as const;

/**
 * The automation screen (/automation, docs/PRODUCT.md#automation): configuration and generated cases on the left,
 * progress and the live step log in the middle, screenshots and results on the right.
 */
export function AutomationScreen(props: AutomationScreenProps) {
  const automation = useAutomation(props);
  const { state } = automation;
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const [saveOpen, setSaveOpen] = useState(false);
  // Saving cases into a project's suite is an editor's (the permission table).
  const maySave = useCan('POST /api/projects/:id/suites');
  const [saved, setSaved] = useState<SavedToProject | null>(null);
  const { projects } = props;

  const summary = useMemo(() => summarize(state.results, state.runTime), [state.results, state.runTime]);
  const cachedSteps = useMemo(
    () => state.log.filter((entry) => entry.resolvedBy === 'cache').length,
    [state.log],
  );
  const connection = props.realtime.status;
  // Lost once connected, the banner stays through the reconnect attempts ('connecting').
  const [wasConnected, setWasConnected] = useState(connection === 'connected');
  useEffect(() => {
    if (connection === 'connected') setWasConnected(true);
  }, [connection]);
  const disconnected =
    connection === 'disconnected' || connection === 'error' || (wasConnected && connection !== 'connected');
  const busy = isBusy(state.status);
  const text = statusText(state.status, automation.mode, state.currentTest, state.outcome);
  const tone = statusTone(state.status, state.outcome);

  const { downloadScreenshots } = automation;
  const downloadOne = useCallback(
    (shot: ScreenshotItem) => void downloadScreenshots([shot.key]),
    [downloadScreenshots],
  );
  const downloadAll = useCallback(
    () => void downloadScreenshots(state.screenshots.map((shot) => shot.key)),
    [downloadScreenshots, state.screenshots],
  );

  // Once a run is over, its failed and flaky cases say why, from the results the server stored;
  // read again when the results change (a rerun of the same test run).
  const resultsVersion = useMemo(
    () => state.results.map((result) => `${result.testName}:${result.status}`).join('|'),
    [state.results],
  );
  const showWhy =
    !busy && state.testRunId !== null && state.results.some((result) => result.status !== 'passed');

  const hasResults = state.results.length > 0 || state.log.length > 0 || state.screenshots.length > 0;

  const Picker = projects?.Picker;
  const target = automation.projectTarget;
  const projectNote = automation.projectResolving
    ? { text: 'Loading the project...', tone: 'loading' as const }
    : automation.projectUrlProblem
      ? { text: automation.projectUrlProblem, tone: 'problem' as const }
      : target
        ? { text: targetNote(target), tone: 'info' as const }
        : null;
  // The page custom cases belong to: the cases' page, or with none yet the URL typed above.
  const casesUrl =
    (state.testCases.length > 0 && state.targetUrl) || automation.url.trim() || state.targetUrl || null;

  const saveSlot =
    projects && maySave ? (
      saveOpen ? (
        <SaveToProjectForm
          projects={projects}
          testCases={state.testCases}
          sourceUrl={state.targetUrl}
          defaultProjectId={automation.projectSelection.projectId}
          onSaved={(next) => {
            setSaved(next);
            setSaveOpen(false);
          }}
          onClose={() => setSaveOpen(false)}
        />
      ) : saved ? (
        <SavedToProjectNote saved={saved} href={projects.projectHref(saved.projectId)} />
      ) : null
    ) : null;

  return (
    <div className="mx-auto max-w-[1600px] space-y-6" data-testid="automation-screen">
      <AutomationHeader
        user={props.user}
        mode={automation.mode}
        connection={connection}
        status={state.status}
        statusTone={tone}
        statusText={text}
        stopFlagSet={automation.stopFlagSet}
        canStop={state.status === 'running'}
        canClear={hasResults && !busy}
        canExport={state.testCases.length > 0 || state.results.length > 0}
        onStop={automation.stop}
        onResetStopFlag={automation.resetStopFlag}
        onClear={automation.clearResults}
        onExport={automation.exportResults}
      />

      {!automation.isLoggedIn && (
        <Banner tone="warning" icon={AlertTriangle} testId="login-banner">
          {AUTOMATION_BANNERS.loggedOut}
        </Banner>
      )}
      {automation.isLoggedIn && disconnected && (
        <Banner tone="error" icon={WifiOff} testId="disconnected-banner">
          {AUTOMATION_BANNERS.disconnected}
        </Banner>
      )}

      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <ConfigPanel
            mode={automation.mode}
            onModeChange={automation.setMode}
            modeLocked={busy}
            url={automation.url}
            onUrlChange={automation.setUrl}
            command={automation.command}
            onCommandChange={automation.setCommand}
            generating={state.status === 'generating'}
            canGenerate={automation.canGenerate}
            onGenerate={automation.generate}
            generationMessages={state.generationMessages}
            projectPicker={
              Picker && (
                <Picker
                  value={automation.projectSelection}
                  onChange={automation.chooseProject}
                  onProject={automation.projectLoaded}
                  disabled={busy}
                  // One above the other in the narrow column of the three-column layout.
                  className="xl:grid-cols-1"
                />
              )
            }
            projectNote={projectNote}
          />
          <TestCasesPanel
            testCases={state.testCases}
            engine={state.engine}
            generationUsage={state.generationUsage}
            commandCoverage={state.commandCoverage}
            exploration={state.exploration}
            results={state.results}
            runningTests={state.status === 'running' ? state.activeTests : []}
            busy={busy}
            generating={state.status === 'generating'}
            onRunAll={automation.runAll}
            onRunOne={automation.runSingle}
            retries={automation.retries}
            onRetriesChange={automation.setRetries}
            url={casesUrl}
            onAddCustom={automation.addCustomCase}
            onRemove={automation.removeCase}
            onSaveToProject={
              projects && !saveOpen
                ? () => {
                    setSaved(null);
                    setSaveOpen(true);
                  }
                : undefined
            }
            saveSlot={saveSlot}
          />
        </div>

        <div className="min-w-0 space-y-6">
          <ProgressPanel
            status={state.status}
            tone={tone}
            current={state.progress.current}
            total={state.progress.total}
            finished={state.results.length}
            activeTests={state.activeTests}
            notice={state.runNotice}
            starting={state.pendingRun !== null && !busy}
          />
          <RunVideoPanel
            realtime={props.realtime}
            sessionId={state.sessionId}
            running={state.status === 'running'}
          />
          <ExecutionLog entries={state.log} />
        </div>

        <div className="min-w-0 space-y-6">
          <ScreenshotGallery
            screenshots={state.screenshots}
            onOpen={setViewerIndex}
            onDownload={downloadOne}
            onDownloadAll={downloadAll}
            onImageError={automation.onImageError}
          />
          <ResultsSummary
            summary={summary}
            runEngine={state.runEngine}
            runUsage={state.runUsage}
            cachedSteps={cachedSteps}
          />
          <TestResultsList results={state.results} />
        </div>
      </div>

      {showWhy && state.testRunId && (
        <Panel
          title="Why cases failed"
          icon={Bug}
          subtitle="Each failed or flaky case's label, trace, console and network"
          testId="why-cases-failed"
        >
          <RunFailedCases runId={state.testRunId} version={resultsVersion} />
        </Panel>
      )}

      {viewerIndex !== null && state.screenshots[viewerIndex] && (
        <ScreenshotViewer
          screenshots={state.screenshots}
          index={viewerIndex}
          onIndexChange={setViewerIndex}
          onClose={() => setViewerIndex(null)}
          onDownload={downloadOne}
          onImageError={automation.onImageError}
        />
      )}
    </div>
  );
}
