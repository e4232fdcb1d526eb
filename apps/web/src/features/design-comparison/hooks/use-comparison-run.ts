import { type ComparisonOptions, DEFAULT_VIEWPORTS } from '@argus/protocol';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { hostOf } from '../../../lib/sessions/screen-session';
import { COMPARISON_TEXTS, SESSION_NAME } from '../model/texts';
import { startBlocker } from '../model/validation';
import type { ComparisonCore } from './comparison-core';

/** The options' defaults (docs/PRODUCT.md#comparison-inputs): no focus, responsive on, threshold 75. */
const OPTIONS: ComparisonOptions = { focus: [], include_responsive: true, similarity_threshold: 75 };

/** Start (its session, then figma_website_comparison), Stop and New Comparison. */
export function useComparisonRun(core: ComparisonCore) {
  const { stateRef, dispatch, latest, sessionIdRef } = core;
  const { setSelectedIssue } = core.inputs;
  const start = useStart(core);

  const stop = useCallback(() => {
    if (stateRef.current.status !== 'running') return;
    dispatch({ type: 'stopped' });
    toast(COMPARISON_TEXTS.stopped, { id: 'comparison-stopped' });
    try {
      latest.current.realtime.send({ type: 'stop_comparison', data: { session_id: sessionIdRef.current } });
    } catch {
      // Disconnected: the server ends the comparison with the socket's other work.
    }
  }, [dispatch, stateRef, latest, sessionIdRef]);

  const reset = useCallback(() => {
    dispatch({ type: 'reset' });
    setSelectedIssue(null);
  }, [dispatch, setSelectedIssue]);

  return { start, stop, reset };
}

/** Checks the inputs again, makes (or reuses) the session, then asks the server to compare. */
function useStart({
  stateRef,
  dispatch,
  latest,
  session,
  sessionIdRef,
  restoredRef,
  inputs,
}: ComparisonCore) {
  const { setSelectedIssue } = inputs;
  return useCallback(async () => {
    const {
      figmaUrl: figma,
      websiteUrl: site,
      method: mode,
      upload: design,
      realtime: socket,
    } = latest.current;
    const problem = startBlocker({
      method: mode,
      websiteUrl: site,
      figmaUrl: figma,
      fileId: design?.file_id ?? null,
      isConnected: socket.isConnected,
      running: stateRef.current.status === 'running',
      uploading: false,
    });
    if (problem) return;
    const websiteUrlValue = site.trim();
    dispatch({ type: 'start' });
    setSelectedIssue(null);
    restoredRef.current = null;
    let sessionId: string;
    try {
      sessionId = await session.ensure(websiteUrlValue, {
        title: SESSION_NAME,
        description: `Design comparison: ${hostOf(websiteUrlValue)}`,
        settings: { website_url: websiteUrlValue, comparison_mode: mode },
      });
    } catch {
      dispatch({ type: 'failed', error: COMPARISON_TEXTS.startFailed });
      toast.error(COMPARISON_TEXTS.startFailed);
      return;
    }
    // Stopped while the session was being made: nothing to send.
    if (stateRef.current.status !== 'running') return;
    sessionIdRef.current = sessionId;
    const common = {
      session_id: sessionId,
      website_url: websiteUrlValue,
      options: OPTIONS,
      viewports: { ...DEFAULT_VIEWPORTS },
    };
    try {
      if (mode === 'figma') {
        socket.send({
          type: 'figma_website_comparison',
          data: { comparison_type: 'figma', figma_url: figma.trim(), ...common },
        });
      } else {
        socket.send({
          type: 'figma_website_comparison',
          data: { comparison_type: 'image', file_id: design?.file_id ?? '', ...common },
        });
      }
    } catch {
      dispatch({ type: 'failed', error: COMPARISON_TEXTS.startFailed });
      toast.error(COMPARISON_TEXTS.startFailed);
    }
  }, [dispatch, session, latest, stateRef, sessionIdRef, restoredRef, setSelectedIssue]);
}
