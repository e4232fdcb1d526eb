import type { ClientMessageInput } from '@argus/protocol';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { createAutomationStore } from '../model/automation-store';
import { isBusy } from '../model/execution';
import { urlProblem } from '../model/project-target';
import { createStopFlag } from '../model/stop-flag';
import { canGenerate } from '../model/validation';
import type { AutomationScreenProps } from '../types';
import type { AutomationCore, LatestInputs } from './automation-core';
import { useAutomationInputs } from './use-automation-inputs';
import { useAutomationSession } from './use-automation-session';
import { useAutomationSocket } from './use-automation-socket';
import { useCaseActions, useResultsOutput } from './use-case-actions';
import { useRunActions } from './use-run-actions';

/** Server messages redraw the screen at most this often (a run sends several a second). */
const RENDER_BATCH_MS = 250;

/**
 * The automation screen's behaviour: inputs, the execution state fed by server messages (docs/PRODUCT.md#execution-states),
 * the actions with their checks (docs/PRODUCT.md#generation), the stop flag, toasts (docs/PRODUCT.md#automation-toasts) and what is kept with
 * the automation session. Each job is a hook of its own (use-automation-*.ts, use-run-actions.ts,
 * use-case-actions.ts) over the one store; this one wires them.
 */
export function useAutomation({ user, realtime, sessions }: AutomationScreenProps) {
  const store = useMemo(() => createAutomationStore(undefined, { serverBatchMs: RENDER_BATCH_MS }), []);
  useEffect(() => () => store.dispose(), [store]);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const stopFlag = useMemo(() => createStopFlag(), []);
  const stopFlagSet = useSyncExternalStore(stopFlag.subscribe, stopFlag.isSet, stopFlag.isSet);
  useEffect(() => () => stopFlag.dispose(), [stopFlag]);

  const inputs = useAutomationInputs(store);
  const { mode, url, command, project } = inputs;
  const isLoggedIn = user !== null;
  const isConnected = realtime.isConnected;
  const busy = isBusy(state.status);

  // Handlers registered once read the latest inputs through this ref.
  const latest = useRef<LatestInputs>({
    mode,
    command,
    user,
    realtime,
    projectChoice: project.projectChoice,
    sessions,
  });
  latest.current = { mode, command, user, realtime, projectChoice: project.projectChoice, sessions };

  const send = useCallback((message: ClientMessageInput) => latest.current.realtime.send(message), []);

  const core: AutomationCore = { store, stopFlag, send, latest, inputs, realtime, isLoggedIn, isConnected };
  const session = useAutomationSession(core, sessions);
  useAutomationSocket(core, session);

  return {
    state,
    mode,
    setMode: inputs.setMode,
    url,
    setUrl: inputs.setUrl,
    command,
    setCommand: inputs.setCommand,
    retries: inputs.retries,
    setRetries: session.setRetries,
    sessionId: session.sessionId,
    stopFlagSet,
    isLoggedIn,
    isConnected,
    busy,
    canGenerate:
      canGenerate({ url, command, mode, isLoggedIn, isConnected, isBusy: busy }) && !project.projectResolving,
    projectSelection: project.projectChoice.selection,
    projectTarget: project.target,
    projectResolving: project.projectResolving,
    projectUrlProblem: urlProblem(url, project.target),
    chooseProject: project.chooseProject,
    projectLoaded: project.projectLoaded,
    ...useRunActions(core, session),
    ...useCaseActions(core, session),
    ...useResultsOutput(core),
  };
}

export type AutomationController = ReturnType<typeof useAutomation>;
