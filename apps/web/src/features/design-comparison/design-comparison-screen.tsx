import { Loader2, ScanSearch, WifiOff } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Banner } from '../../components/banner';
import { EmptyState } from '../../components/empty-state';
import { Panel } from '../../components/panel';
import { ComparisonHeader } from './components/comparison-header';
import { DetailsTabs, type DetailTab } from './components/details-tabs';
import { FigmaAccessModal } from './components/figma-access-modal';
import { PastComparisons } from './components/past-comparisons';
import { ProTips } from './components/pro-tips';
import { ProgressCard } from './components/progress-card';
import { ResultsSummary } from './components/results-summary';
import { SetupPanel } from './components/setup-panel';
import { VisualPanel } from './components/visual-panel';
import { useDesignComparison } from './hooks/use-design-comparison';
import type { DesignComparisonScreenProps } from './types';

/** docs/PRODUCT.md#comparison-texts: the socket is gone for good (reconnect attempts spent). */
const CONNECTION_LOST = 'Connection lost. Please refresh the page.';

/**
 * The design comparison screen (/figma-comparison, docs/PRODUCT.md#design-comparison): the design (a Figma file or an uploaded
 * image) and the website on the left with Pro Tips and the past comparisons; progress and the results summary on the right;
 * below, the detail tabs beside the visual comparison, whose boxes follow the Issues tab.
 */
export function DesignComparisonScreen(props: DesignComparisonScreenProps) {
  const cmp = useDesignComparison(props);
  const { state, view } = cmp;
  const [tab, setTab] = useState<DetailTab>('overview');
  const [viewport, setViewport] = useState('desktop');
  const details = useRef<HTMLElement>(null);
  const visual = useRef<HTMLDivElement>(null);

  // A new result opens on its overview and its first viewport with images.
  const firstImage = view?.images[0]?.name ?? null;
  useEffect(() => {
    setTab('overview');
    if (firstImage) setViewport(firstImage);
  }, [firstImage]);

  const { setSelectedIssue } = cmp;
  const selectIssue = useCallback(
    (id: string) => {
      setSelectedIssue(id);
      const issue = view?.issues.find((entry) => entry.id === id);
      const where = issue?.location?.viewport;
      if (where && view?.images.some((image) => image.name === where)) setViewport(where);
      // The box itself is scrolled to by the panel; on a narrow screen the panel is below the list.
      if (!issue?.location) visual.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    },
    [setSelectedIssue, view],
  );

  const viewDetails = useCallback(() => {
    details.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, []);

  const hasOutcome = state.status !== 'idle' && state.status !== 'running';

  return (
    <div className="mx-auto max-w-[1600px] space-y-6" data-testid="design-comparison-screen">
      <ComparisonHeader connection={props.realtime.status} />

      {props.realtime.status === 'error' && (
        <Banner tone="error" icon={WifiOff} testId="connection-lost-banner">
          {CONNECTION_LOST}
        </Banner>
      )}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.35fr)]">
        <div className="min-w-0 space-y-6">
          <SetupPanel
            method={cmp.method}
            onMethodChange={cmp.setMethod}
            figmaUrl={cmp.figmaUrl}
            onFigmaUrlChange={cmp.setFigmaUrl}
            onNeedHelp={cmp.requestHelp}
            websiteUrl={cmp.websiteUrl}
            onWebsiteUrlChange={cmp.setWebsiteUrl}
            upload={cmp.upload}
            uploading={cmp.uploading}
            onFile={(file) => void cmp.chooseFile(file)}
            onRemoveUpload={cmp.removeUpload}
            running={cmp.running}
            canStart={cmp.canStart}
            hasOutcome={hasOutcome}
            onStart={() => void cmp.start()}
            onStop={cmp.stop}
            onNew={cmp.reset}
          />
          <ProTips />
          <PastComparisons
            enabled={props.user !== null}
            currentSessionId={state.status === 'idle' ? null : cmp.currentSessionId}
            disabled={cmp.running}
            onOpen={cmp.openPast}
          />
        </div>

        <div className="min-w-0 space-y-6">
          {cmp.reopening ? (
            <Panel title="Results" icon={ScanSearch}>
              <div
                className="flex items-center justify-center gap-2 py-8 text-sm text-slate-600"
                role="status"
              >
                <Loader2 className="size-4 animate-spin text-indigo-600" aria-hidden />
                Opening the comparison...
              </div>
            </Panel>
          ) : state.status === 'idle' ? (
            <Panel title="Results" icon={ScanSearch} testId="comparison-empty">
              <EmptyState
                icon={ScanSearch}
                title="No comparison yet"
                hint="Choose a Figma file or upload a design image, enter the website, and press Start Comparison."
              />
            </Panel>
          ) : (
            <ProgressCard state={state} />
          )}
          {view && <ResultsSummary view={view} onViewDetails={viewDetails} onExport={cmp.exportResults} />}
        </div>
      </div>

      {view && (
        <div className="grid items-start gap-6 2xl:grid-cols-[minmax(0,1fr)_minmax(0,1.35fr)]">
          <DetailsTabs
            ref={details}
            view={view}
            tab={tab}
            onTabChange={setTab}
            selectedIssue={cmp.selectedIssue}
            onSelectIssue={selectIssue}
            onCopyCss={(css) => void cmp.copyCss(css)}
          />
          {view.images.length > 0 && (
            <div ref={visual} className="min-w-0 scroll-mt-24 2xl:sticky 2xl:top-24">
              <VisualPanel
                view={view}
                viewport={viewport}
                onViewportChange={setViewport}
                selectedIssue={cmp.selectedIssue}
                onSelectIssue={selectIssue}
              />
            </div>
          )}
        </div>
      )}

      <FigmaAccessModal help={cmp.modal} onCancel={cmp.closeModal} onAcknowledge={cmp.acknowledgeModal} />
    </div>
  );
}
