import type { TestMode } from '@argus/protocol';
import { useCallback } from 'react';
import { hostOf, type ScreenSessionStore } from '../../../lib/sessions/screen-session';
import { useScreenSession } from '../../../lib/sessions/use-screen-session';
import type { AutomationState } from '../model/automation-state';
import { keptWork } from '../model/kept-work';
import { selectionSettings } from '../model/project-target';
import { automationRecord, readAutomationSession, type SavedAutomation } from '../model/session-record';
import type { AutomationCore } from './automation-core';

/**
 * The automation session the screen's work is kept with (docs/PRODUCT.md#sessions): the screen as it
 * was left, its cases and results saved with it.
 */
export function useAutomationSession(
  { store, latest, inputs }: AutomationCore,
  sessions: ScreenSessionStore,
) {
  const { setModeState, setUrl, setCommand, setRetriesState } = inputs;
  const { dispatchProject } = inputs.project;

  /** The screen as it was left: the last automation session's cases (and results). */
  const applySaved = useCallback(
    (saved: SavedAutomation) => {
      setModeState(saved.mode);
      setUrl(saved.url);
      setCommand(saved.command);
      setRetriesState(saved.retries);
      dispatchProject({ type: 'restore', selection: saved.project });
      store.dispatch({ type: 'restore', mode: saved.mode, targetUrl: saved.url, ...keptWork(saved) });
    },
    [store, setModeState, setUrl, setCommand, setRetriesState, dispatchProject],
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

  /** Keeps the screen's last cases and results with the session. */
  const persist = useCallback(
    (snapshot: AutomationState, withResults: boolean) => {
      const { mode, command, projectChoice } = latest.current;
      save(...automationRecord(snapshot, { mode, command, selection: projectChoice.selection }, withResults));
    },
    [save, latest],
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
    [ensure, latest],
  );

  /** The Retries choice (docs/HISTORY.md#retries), kept with the session. */
  const setRetries = useCallback(
    (next: number) => {
      setRetriesState(next);
      save({ retries: next });
    },
    [save, setRetriesState],
  );

  return { sessionId, persist, followSession, ensureSession, setRetries };
}

export type AutomationSession = ReturnType<typeof useAutomationSession>;
