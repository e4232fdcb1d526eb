import type { TestCase } from '@argus/protocol';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { isBusy } from '../model/execution';
import { NOTICES, STOPPING_TOAST_MS } from '../model/notifications';
import { targetIds } from '../model/project-target';
import { newStopId } from '../model/stop-flag';
import { validateGenerate, validateRun } from '../model/validation';
import { type AutomationCore, reasonOf } from './automation-core';
import type { AutomationSession } from './use-automation-session';

/** Generate (docs/PRODUCT.md#generation): checks, the session the cases belong to, then the request. */
function useGenerate(core: AutomationCore, session: AutomationSession) {
  const { store, send, inputs, isLoggedIn, isConnected } = core;
  const { url, command, mode } = inputs;
  const { projectProblem, target } = inputs.project;
  const { ensureSession } = session;
  return useCallback(async () => {
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
}

/** Run All Tests and each case's Run, with the Retries choice, on the chosen project environment. */
function useRuns(core: AutomationCore, sessionId: string | null) {
  const { store, send, inputs, isLoggedIn, isConnected } = core;
  const { url, command, mode, retries } = inputs;
  const { projectProblem, target } = inputs.project;

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

  return { runAll, runSingle };
}

/** docs/PRODUCT.md#stopping-a-run: Stop sets the flag (3 s); pressing it again while set forces the stop. */
function useStop(core: AutomationCore, sessionId: string | null) {
  const { stopFlag, send, latest } = core;
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
  }, [stopFlag, send, sessionId, latest]);

  const resetStopFlag = useCallback(() => {
    stopFlag.clear();
    toast.success(NOTICES.stopFlagReset);
  }, [stopFlag]);

  return { stop, resetStopFlag };
}

/** The screen's work: generate the cases, run them, stop a run. */
export function useRunActions(core: AutomationCore, session: AutomationSession) {
  const generate = useGenerate(core, session);
  const { runAll, runSingle } = useRuns(core, session.sessionId);
  const { stop, resetStopFlag } = useStop(core, session.sessionId);
  return { generate, runAll, runSingle, stop, resetStopFlag };
}
