import type { AutomationInProgress, ServerMessage } from '@argus/protocol';
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { concernsAutomation } from '../model/automation-state';
import { type Notice, noticeFor } from '../model/notifications';
import { readSelection } from '../model/project-target';
import type { AutomationCore, LatestInputs } from './automation-core';
import type { AutomationInputs } from './use-automation-inputs';
import type { AutomationSession } from './use-automation-session';

function show(notice: Notice) {
  const options = notice.duration ? { duration: notice.duration } : undefined;
  if (notice.kind === 'success') toast.success(notice.text, options);
  else if (notice.kind === 'error') toast.error(notice.text, options);
  else toast(notice.text, options);
}

/**
 * Work already under way on the server when this socket connected (a reload, another tab): the
 * inputs and the session follow it, so its outcome is kept with the right session.
 */
function useFollowWork(
  latest: RefObject<LatestInputs>,
  inputs: AutomationInputs,
  followSession: AutomationSession['followSession'],
) {
  const { setUrl, setModeState, setCommand } = inputs;
  const { dispatchProject } = inputs.project;
  return useCallback(
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
    [followSession, latest, setUrl, setModeState, setCommand, dispatchProject],
  );
}

/**
 * The screen on the user's shared socket: server messages → state, toasts, stop flag and what is kept
 * with the session; work already under way followed; a close resets the state.
 */
export function useAutomationSocket(core: AutomationCore, session: AutomationSession) {
  const { store, stopFlag, send, latest, inputs, realtime, isConnected } = core;
  const { sessionId, persist } = session;
  const follow = useFollowWork(latest, inputs, session.followSession);

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
}
