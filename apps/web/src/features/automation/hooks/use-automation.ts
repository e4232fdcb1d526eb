import type {
  AutomationInProgress,
  ClientMessageInput,
  Environment,
  Project,
  ServerMessage,
  TestCase,
  TestMode,
} from '@argus/protocol';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import toast from 'react-hot-toast';
import { downloadJson, downloadUrl } from '../../../lib/download';
import { hostOf } from '../../../lib/sessions/screen-session';
import { useScreenSession } from '../../../lib/sessions/use-screen-session';
import { getRunScreenshots } from '../api/run-screenshots';
import { type AutomationState, concernsAutomation } from '../model/automation-state';
import { createAutomationStore } from '../model/automation-store';
import { isBusy } from '../model/execution';
import { createLinkRefresher } from '../model/link-refresh';
import { NOTICES, type Notice, noticeFor, STOPPING_TOAST_MS } from '../model/notifications';
import {
  isResolving,
  NO_PROJECT_STATE,
  type ProjectSelection,
  projectChoiceReducer,
  readSelection,
  rebaseUrl,
  resolveTarget,
  selectionSettings,
  targetIds,
  urlProblem,
} from '../model/project-target';
import { readAutomationSession, type SavedAutomation } from '../model/restore';
import { buildExport, exportFileName } from '../model/results';
import { DOWNLOAD_SPACING_MS, type ScreenshotItem } from '../model/screenshots';
import { logsForStorage } from '../model/step-log';
import { createStopFlag, newStopId } from '../model/stop-flag';
import { canGenerate, isAbsoluteHttpUrl, validateGenerate, validateRun } from '../model/validation';
import type { AutomationScreenProps } from '../types';

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function show(notice: Notice) {
  const options = notice.duration ? { duration: notice.duration } : undefined;
  if (notice.kind === 'success') toast.success(notice.text, options);
  else if (notice.kind === 'error') toast.error(notice.text, options);
  else toast(notice.text, options);
}

/** Said when work would start while the chosen project still loads. */
const PROJECT_LOADING = 'The project is still loading. Try again in a moment.';

/** Server messages redraw the screen at most this often (a run sends several a second). */
const RENDER_BATCH_MS = 250;

/**
 * The automation screen's behaviour: inputs, the execution state fed by server messages (docs/PRODUCT.md#execution-states),
 * the actions with their checks (docs/PRODUCT.md#generation), the stop flag, toasts (docs/PRODUCT.md#automation-toasts) and what is kept with
 * the automation session.
 */
export function useAutomation({ user, realtime, sessions }: AutomationScreenProps) {
  const store = useMemo(() => createAutomationStore(undefined, { serverBatchMs: RENDER_BATCH_MS }), []);
  useEffect(() => () => store.dispose(), [store]);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const stopFlag = useMemo(() => createStopFlag(), []);
  const stopFlagSet = useSyncExternalStore(stopFlag.subscribe, stopFlag.isSet, stopFlag.isSet);
  useEffect(() => () => stopFlag.dispose(), [stopFlag]);

  const [mode, setModeState] = useState<TestMode>('full');
  const [url, setUrl] = useState('');
  const [command, setCommand] = useState('');
  const [retries, setRetriesState] = useState(0);
  // The project environment the work runs on (docs/PROJECTS.md), or none: a bare URL.
  const [projectChoice, dispatchProject] = useReducer(projectChoiceReducer, NO_PROJECT_STATE);
  const target = useMemo(() => resolveTarget(projectChoice), [projectChoice]);
  const projectResolving = isResolving(projectChoice);

  const isLoggedIn = user !== null;
  const isConnected = realtime.isConnected;
  const busy = isBusy(state.status);

  // Handlers registered once read the latest inputs through this ref.
  const latest = useRef({ mode, command, user, realtime, projectChoice, sessions });
  latest.current = { mode, command, user, realtime, projectChoice, sessions };

  const send = useCallback((message: ClientMessageInput) => latest.current.realtime.send(message), []);

  /** The screen as it was left: the last automation session's cases (and results). */
  const applySaved = useCallback(
    (saved: SavedAutomation) => {
      setModeState(saved.mode);
      setUrl(saved.url);
      setCommand(saved.command);
      setRetriesState(saved.retries);
      dispatchProject({ type: 'restore', selection: saved.project });
      store.dispatch({
        type: 'restore',
        mode: saved.mode,
        targetUrl: saved.url,
        testCases: saved.testCases,
        engine: saved.engine,
        generationUsage: saved.generationUsage,
        commandCoverage: saved.commandCoverage,
        exploration: saved.exploration,
        runEngine: saved.runEngine,
        runUsage: saved.runUsage,
        testRunId: saved.testRunId,
        results: saved.results,
      });
    },
    [store],
  );
  const isStarted = useCallback(
    () => store.getState().testCases.length > 0 || store.getState().status !== 'idle',
    [store],
  );
  const {
    sessionId,
    ensure,
    save,
    follow: followSession,
  } = useScreenSession({
    type: 'automation',
    sessions,
    restore: { read: readAutomationSession, apply: applySaved, isStarted },
  });

  /** Keeps the screen's last cases and results with the session (docs/PRODUCT.md#sessions: no screenshots). */
  const persist = useCallback(
    (snapshot: AutomationState, withResults: boolean) => {
      const { mode: currentMode, command: currentCommand } = latest.current;
      save(
        {
          testMode: snapshot.generationMode ?? currentMode,
          command: currentCommand.trim() || null,
          url: snapshot.targetUrl,
          testCases: snapshot.testCases,
          ...selectionSettings(latest.current.projectChoice.selection),
        },
        {
          testCases: snapshot.testCases,
          engine: snapshot.engine,
          generationUsage: snapshot.generationUsage,
          commandCoverage: snapshot.commandCoverage,
          exploration: snapshot.exploration,
          testRunId: snapshot.testRunId,
          ...(withResults
            ? {
                runEngine: snapshot.runEngine,
                runUsage: snapshot.runUsage,
                executionResults: snapshot.results,
                logs: logsForStorage(snapshot.log),
                summary: { runTime: snapshot.runTime, status: snapshot.status },
              }
            : {}),
        },
      );
    },
    [save],
  );

  /**
   * Work already under way on the server when this socket connected (a reload, another tab): the
   * inputs and the session follow it, so its outcome is kept with the right session.
   */
  const follow = useCallback(
    (work: AutomationInProgress) => {
      setUrl(work.url);
      setModeState(work.test_mode);
      setCommand(work.command ?? '');
      if (work.session_id) {
        // The work's project environment is the one its session keeps.
        const known = latest.current.sessions.sessions.find((s) => s.id === work.session_id);
        if (known) dispatchProject({ type: 'restore', selection: readSelection(known.settings.project) });
        followSession(work.session_id, work.url);
      }
    },
    [followSession],
  );

  // The state follows the screen's session: messages about other sessions are not this screen's.
  useEffect(() => {
    store.dispatch({ type: 'session', sessionId });
  }, [store, sessionId]);

  // Server messages → state, toasts, stop flag, persistence. The socket is shared by every screen:
  // other features' messages, and other sessions', are left alone.
  useEffect(
    () =>
      realtime.client.onMessage((message: ServerMessage) => {
        const before = store.getState();
        if (!concernsAutomation(before, message)) return;
        const after = store.dispatch({ type: 'server', message });
        if (message.type === 'execution_stopping' || message.type === 'execution_stopped') stopFlag.clear();
        const notice = noticeFor(message, before);
        if (notice) show(notice);
        if (message.type === 'automation_in_progress') follow(message.data);
        if (message.type === 'test_cases_generated') persist(after, false);
        if (message.type === 'all_tests_completed' || message.type === 'execution_stopped') {
          persist(after, true);
        }
      }),
    [realtime.client, store, stopFlag, persist, follow],
  );

  // Work already under way on the server (a reload, another tab, a dropped socket) is asked for once
  // this screen listens, so the answer cannot arrive before anyone hears it.
  useEffect(() => {
    if (!isConnected) return;
    try {
      send({ type: 'get_automation_status', data: {} });
    } catch {
      // Disconnected again in between: asked on the next connection.
    }
  }, [isConnected, send]);

  // docs/PRODUCT.md#execution-states: a socket close resets the state to idle (and nothing is left waiting for an answer).
  const wasConnected = useRef(isConnected);
  useEffect(() => {
    if (wasConnected.current && !isConnected) {
      store.dispatch({ type: 'socket_closed' });
      stopFlag.clear();
    }
    wasConnected.current = isConnected;
  }, [isConnected, store, stopFlag]);

  /** docs/PRODUCT.md#execution-states: the mode cannot change while generating or running. */
  const setMode = useCallback(
    (next: TestMode) => {
      if (isBusy(store.getState().status)) return;
      setModeState(next);
    },
    [store],
  );

  /** The session the cases belong to: reused for the same host, otherwise a new one. */
  const ensureSession = useCallback(
    (targetUrl: string, testMode: TestMode, testCommand: string): Promise<string> =>
      ensure(targetUrl, {
        title: `Automation: ${hostOf(targetUrl)}`,
        description:
          testMode === 'command' ? `Command-based testing: ${testCommand}` : 'Full website testing',
        settings: {
          testMode,
          command: testCommand || null,
          url: targetUrl,
          ...selectionSettings(latest.current.projectChoice.selection),
        },
      }),
    [ensure],
  );

  /**
   * The picker: a project (its environment follows once it loads), an environment, or none. Choosing
   * an environment puts its address in the URL, keeping a path typed on the previous one's.
   */
  const chooseProject = useCallback(
    (selection: ProjectSelection, choice: { project: Project; environment: Environment } | null) => {
      const before = resolveTarget(latest.current.projectChoice);
      dispatchProject({ type: 'choose', selection, project: choice?.project ?? null });
      if (choice)
        setUrl((current) => rebaseUrl(current, before?.baseUrl ?? null, choice.environment.base_url));
    },
    [],
  );

  /** The chosen project as loaded now; null once it no longer exists (the choice goes back to none). */
  const projectLoaded = useCallback((projectId: string, project: Project | null) => {
    dispatchProject({ type: 'loaded', projectId, project });
  }, []);

  /** Why work on `workUrl` cannot start in the chosen project environment, or null. */
  const projectProblem = useCallback(
    (workUrl: string): string | null => (projectResolving ? PROJECT_LOADING : urlProblem(workUrl, target)),
    [projectResolving, target],
  );

  const generate = useCallback(async () => {
    const problem = validateGenerate({ url, command, mode, isLoggedIn, isConnected }) ?? projectProblem(url);
    if (problem) {
      toast.error(problem);
      return;
    }
    if (isBusy(store.getState().status)) return;
    const targetUrl = url.trim();
    const testCommand = mode === 'command' ? command.trim() : '';
    store.dispatch({ type: 'generate_requested', url: targetUrl, mode });
    let id: string;
    try {
      id = await ensureSession(targetUrl, mode, testCommand);
    } catch {
      // The sessions store showed why ('Failed to create session: …', docs/PRODUCT.md#sessions).
      store.dispatch({ type: 'generate_aborted' });
      return;
    }
    // Bound now, before anything is sent: the first answer may come before the screen redraws.
    store.dispatch({ type: 'session', sessionId: id });
    try {
      const ids = targetIds(target);
      if (mode === 'command') {
        send({
          type: 'command_generate_test_cases',
          data: { url: targetUrl, command: testCommand, session_id: id, ...ids },
        });
      } else {
        send({ type: 'generate_test_cases', data: { url: targetUrl, session_id: id, ...ids } });
      }
    } catch (error) {
      store.dispatch({ type: 'generate_aborted' });
      toast.error(NOTICES.generateFailed(reasonOf(error)));
    }
  }, [url, command, mode, isLoggedIn, isConnected, store, ensureSession, send, projectProblem, target]);

  const runCheck = useCallback(
    (count: number): boolean => {
      const snapshot = store.getState();
      const problem =
        validateRun({ testCaseCount: count, isConnected, sessionId, isLoggedIn }) ??
        projectProblem(snapshot.targetUrl ?? url.trim());
      if (problem) toast.error(problem);
      return problem === null;
    },
    [store, url, isConnected, sessionId, isLoggedIn, projectProblem],
  );

  const runPayload = useCallback(() => {
    const snapshot = store.getState();
    const testMode = snapshot.generationMode ?? mode;
    return {
      url: snapshot.targetUrl ?? url.trim(),
      test_mode: testMode,
      command: testMode === 'command' ? command.trim() || null : null,
      session_id: sessionId,
      test_run_id: snapshot.testRunId,
      ...targetIds(target),
      ...(retries > 0 ? { retries } : {}),
    };
  }, [store, mode, url, command, sessionId, target, retries]);

  /** The Retries choice (docs/HISTORY.md#retries), kept with the session. */
  const setRetries = useCallback(
    (next: number) => {
      setRetriesState(next);
      save({ retries: next });
    },
    [save],
  );

  const runAll = useCallback(() => {
    const snapshot = store.getState();
    if (!runCheck(snapshot.testCases.length) || isBusy(snapshot.status)) return;
    store.dispatch({ type: 'session', sessionId });
    store.dispatch({ type: 'run_requested', run: { kind: 'all' } });
    try {
      send({ type: 'run_all_tests', data: { ...runPayload(), test_cases: snapshot.testCases } });
    } catch (error) {
      store.dispatch({ type: 'run_aborted' });
      toast.error(NOTICES.startFailed(reasonOf(error)));
    }
  }, [store, runCheck, runPayload, send, sessionId]);

  const runSingle = useCallback(
    (testCase: TestCase) => {
      const snapshot = store.getState();
      if (!runCheck(1) || isBusy(snapshot.status)) return;
      store.dispatch({ type: 'session', sessionId });
      store.dispatch({ type: 'run_requested', run: { kind: 'single', testName: testCase.test_name } });
      try {
        send({ type: 'run_single_test', data: { ...runPayload(), test_case: testCase } });
      } catch (error) {
        store.dispatch({ type: 'run_aborted' });
        toast.error(NOTICES.runFailed(reasonOf(error)));
      }
    },
    [store, runCheck, runPayload, send, sessionId],
  );

  /** docs/PRODUCT.md#stopping-a-run: Stop sets the flag (3 s); pressing it again while set forces the stop. */
  const stop = useCallback(() => {
    const force = stopFlag.set();
    try {
      send({
        type: 'stop_execution',
        data: {
          stopId: newStopId(),
          force,
          session_id: sessionId,
          user_id: latest.current.user?.id,
          timestamp: new Date().toISOString(),
        },
      });
      toast(NOTICES.stopping, { duration: STOPPING_TOAST_MS });
    } catch {
      stopFlag.clear();
      toast.error(NOTICES.stopFailed);
    }
  }, [stopFlag, send, sessionId]);

  const resetStopFlag = useCallback(() => {
    stopFlag.clear();
    toast.success(NOTICES.stopFlagReset);
  }, [stopFlag]);

  /**
   * Adds a case the user wrote (already checked against the step language). It belongs to the page
   * the cases were generated for, or else to the URL typed above, and is kept with the session.
   */
  const addCustomCase = useCallback(
    async (testCase: TestCase): Promise<boolean> => {
      const snapshot = store.getState();
      if (isBusy(snapshot.status)) return false;
      const targetUrl = (snapshot.testCases.length > 0 && snapshot.targetUrl) || url.trim();
      if (!isAbsoluteHttpUrl(targetUrl)) {
        toast.error('Enter the website URL above first');
        return false;
      }
      const problem = projectProblem(targetUrl);
      if (problem) {
        toast.error(problem);
        return false;
      }
      try {
        await ensureSession(
          targetUrl,
          snapshot.generationMode ?? mode,
          mode === 'command' ? command.trim() : '',
        );
      } catch {
        return false;
      }
      const after = store.dispatch({
        type: 'add_custom_case',
        testCase: { ...testCase, url: testCase.url ?? targetUrl },
        targetUrl,
      });
      persist(after, true);
      toast.success(`Added "${testCase.test_name}"`);
      return true;
    },
    [store, url, mode, command, ensureSession, persist, projectProblem],
  );

  const removeCase = useCallback(
    (testName: string) => {
      const before = store.getState();
      const after = store.dispatch({ type: 'remove_case', testName });
      if (after !== before) persist(after, true);
    },
    [store, persist],
  );

  const clearResults = useCallback(() => {
    persist(store.dispatch({ type: 'clear_results' }), true);
    toast.success(NOTICES.resultsCleared);
  }, [store, persist]);

  // Stored images (a run this screen joined late) open through signed links that expire; a screen
  // kept open longer fetches the run's screenshot list again for fresh links.
  const links = useMemo(
    () =>
      createLinkRefresher({
        items: () => store.getState().screenshots,
        fetchLinks: (runId) => getRunScreenshots(runId),
        apply: (refs) => store.dispatch({ type: 'screenshot_links', refs }),
      }),
    [store],
  );
  const onImageError = useCallback((shot: ScreenshotItem) => void links.imageFailed(shot), [links]);

  /** Downloads screenshots (spaced, docs/PRODUCT.md#screenshots), renewing stale links first. */
  const downloadScreenshots = useCallback(
    async (keys: readonly string[]) => {
      await links.ensureFresh();
      const byKey = new Map(store.getState().screenshots.map((shot) => [shot.key, shot]));
      keys.forEach((key, index) => {
        const shot = byKey.get(key);
        if (!shot) return;
        if (index === 0) downloadUrl(shot.src, shot.fileName);
        else setTimeout(() => downloadUrl(shot.src, shot.fileName), index * DOWNLOAD_SPACING_MS);
      });
    },
    [links, store],
  );

  const exportResults = useCallback(() => {
    const snapshot = store.getState();
    const testMode = snapshot.generationMode ?? mode;
    const now = new Date();
    const data = buildExport({
      url: snapshot.targetUrl ?? url.trim(),
      command: testMode === 'command' ? command.trim() || null : null,
      testMode,
      testCases: snapshot.testCases,
      results: snapshot.results,
      screenshots: snapshot.screenshots,
      runTime: snapshot.runTime,
      now,
    });
    downloadJson(data, exportFileName(testMode, now));
    toast.success(NOTICES.exported);
  }, [store, mode, url, command]);

  return {
    state,
    mode,
    setMode,
    url,
    setUrl,
    command,
    setCommand,
    retries,
    setRetries,
    sessionId,
    stopFlagSet,
    isLoggedIn,
    isConnected,
    busy,
    canGenerate:
      canGenerate({ url, command, mode, isLoggedIn, isConnected, isBusy: busy }) && !projectResolving,
    projectSelection: projectChoice.selection,
    projectTarget: target,
    projectResolving,
    projectUrlProblem: urlProblem(url, target),
    chooseProject,
    projectLoaded,
    generate,
    runAll,
    runSingle,
    stop,
    resetStopFlag,
    clearResults,
    exportResults,
    addCustomCase,
    removeCase,
    onImageError,
    downloadScreenshots,
  };
}

export type AutomationController = ReturnType<typeof useAutomation>;
