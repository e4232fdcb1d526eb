import { useRef } from 'react';
import { useScreenSession } from '../../../lib/sessions/use-screen-session';
import { startBlocker } from '../model/validation';
import type { DesignComparisonScreenProps } from '../types';
import type { ComparisonCore, LatestInputs } from './comparison-core';
import { useComparisonInputs } from './use-comparison-inputs';
import { useComparisonOutput } from './use-comparison-output';
import { useComparisonReopen } from './use-comparison-reopen';
import { useComparisonRun } from './use-comparison-run';
import { useComparisonSocket } from './use-comparison-socket';
import { useComparisonState } from './use-comparison-state';
import { useDesignUpload } from './use-design-upload';
import { useFigmaAccess } from './use-figma-access';

export type { FigmaHelp } from './figma-help';

/**
 * The design comparison screen's behaviour: the form (method, URLs, the uploaded design), the
 * comparison's state fed by server messages (docs/PRODUCT.md#comparison-progress), start/stop/new, the access modal, export and
 * copy, the session each comparison belongs to, and reopening one with `?session=<id>`. Each job is a
 * hook of its own (use-comparison-*.ts, use-design-upload.ts, use-figma-access.ts) over one core
 * (comparison-core.ts); this one wires them, in the order their effects run.
 */
export function useDesignComparison({ realtime, sessions }: DesignComparisonScreenProps) {
  const { state, stateRef, dispatch } = useComparisonState();
  const inputs = useComparisonInputs();
  const { method, figmaUrl, websiteUrl, upload } = inputs;
  const uploads = useDesignUpload(inputs.setUpload);

  const session = useScreenSession({ type: 'figma-comparison', sessions });
  const sessionIdRef = useRef<string | null>(null);
  sessionIdRef.current = session.sessionId;

  // Handlers registered once read the latest inputs through this ref.
  const latest = useRef<LatestInputs>({ realtime, figmaUrl, websiteUrl, method, upload });
  latest.current = { realtime, figmaUrl, websiteUrl, method, upload };
  const restoredRef = useRef<object | null>(null);

  const core: ComparisonCore = { stateRef, dispatch, latest, inputs, session, sessionIdRef, restoredRef };
  useComparisonSocket(core, realtime);
  const completedResults = state.status === 'completed' ? state.results : null;
  const { openPast, reopening } = useComparisonReopen(core, completedResults);

  const isConnected = realtime.isConnected;
  const running = state.status === 'running';
  const blocker = startBlocker({
    method,
    websiteUrl,
    figmaUrl,
    fileId: upload?.file_id ?? null,
    isConnected,
    running,
    uploading: uploads.uploading,
  });

  const output = useComparisonOutput(core, state.results);

  return {
    state,
    view: output.view,
    method,
    setMethod: inputs.setMethod,
    figmaUrl,
    setFigmaUrl: inputs.setFigmaUrl,
    websiteUrl,
    setWebsiteUrl: inputs.setWebsiteUrl,
    upload,
    ...uploads,
    canStart: blocker === null,
    running,
    isConnected,
    ...useComparisonRun(core),
    openPast,
    currentSessionId: session.sessionId,
    modal: inputs.modal,
    ...useFigmaAccess(core),
    exportResults: output.exportResults,
    copyCss: output.copyCss,
    selectedIssue: inputs.selectedIssue,
    setSelectedIssue: inputs.setSelectedIssue,
    reopening,
  };
}

export type DesignComparisonController = ReturnType<typeof useDesignComparison>;
