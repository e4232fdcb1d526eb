import {
  type ComparisonOptions,
  DEFAULT_VIEWPORTS,
  type ServerMessage,
  type UploadedDesign,
} from '@argus/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { ApiError, errorText } from '../../../lib/api-error';
import { downloadText } from '../../../lib/download';
import { hostOf } from '../../../lib/sessions/screen-session';
import { useScreenSession } from '../../../lib/sessions/use-screen-session';
import { useStoredComparison } from '../api/get-comparison';
import { PAST_COMPARISONS_QUERY_KEY } from '../api/list-comparisons';
import { useUploadDesign } from '../api/upload-design';
import {
  type ComparisonEvent,
  type ComparisonState,
  comparisonReducer,
  concernsComparison,
  eventOf,
  INITIAL_STATE,
} from '../model/comparison-state';
import { exportText, viewResults } from '../model/results';
import { COMPARISON_TEXTS, completedToast, EXPORT_FILE_NAME, SESSION_NAME } from '../model/texts';
import { type ComparisonMethod, checkDesignFile, isValidFigmaUrl, startBlocker } from '../model/validation';
import type { DesignComparisonScreenProps } from '../types';

/** The options' defaults (docs/PRODUCT.md#comparison-inputs): no focus, responsive on, threshold 75. */
const OPTIONS: ComparisonOptions = { focus: [], include_responsive: true, similarity_threshold: 75 };
const UPLOAD_TOAST_ID = 'design-upload';
/** When the socket is not open (docs/PRODUCT.md#comparison-texts). */
const CONNECTION_LOST = 'Connection lost. Please refresh the page.';
/** 'Session not found' (docs/PRODUCT.md#comparison-texts): a `?session=` naming no comparison of this user. */
const SESSION_NOT_FOUND = 'Session not found';

/** What the access modal shows beyond the spec's fixed text: the service account, when the server names it. */
export interface FigmaHelp {
  serviceAccountEmail: string | null;
}

function readHelp(data: { [key: string]: unknown }): FigmaHelp {
  const email = data.service_account_email;
  return { serviceAccountEmail: typeof email === 'string' && email.trim() ? email.trim() : null };
}

/**
 * The design comparison screen's behaviour: the form (method, URLs, the uploaded design), the
 * comparison's state fed by server messages (docs/PRODUCT.md#comparison-progress), start/stop/new, the access modal, export and
 * copy, the session each comparison belongs to, and reopening one with `?session=<id>`.
 */
export function useDesignComparison({ realtime, sessions }: DesignComparisonScreenProps) {
  const [state, setState] = useState<ComparisonState>(INITIAL_STATE);
  // The handlers below read the state as it is now, not as it was at the last render.
  const stateRef = useRef(state);
  const dispatch = useCallback((event: ComparisonEvent) => {
    const before = stateRef.current;
    const after = comparisonReducer(before, event);
    stateRef.current = after;
    setState(after);
    return { before, after };
  }, []);

  const [method, setMethod] = useState<ComparisonMethod>('figma');
  const [figmaUrl, setFigmaUrl] = useState('');
  const [websiteUrl, setWebsiteUrl] = useState('');
  const [upload, setUpload] = useState<UploadedDesign | null>(null);
  const [modal, setModal] = useState<FigmaHelp | null>(null);
  const [selectedIssue, setSelectedIssue] = useState<string | null>(null);
  const uploader = useUploadDesign();
  const queryClient = useQueryClient();

  const session = useScreenSession({ type: 'figma-comparison', sessions });
  const sessionIdRef = useRef<string | null>(null);
  sessionIdRef.current = session.sessionId;

  const latest = useRef({ realtime, figmaUrl, websiteUrl, method, upload });
  latest.current = { realtime, figmaUrl, websiteUrl, method, upload };

  // ---- server messages -------------------------------------------------------------------------
  useEffect(
    () =>
      realtime.client.onMessage((message: ServerMessage) => {
        if (!concernsComparison(message, sessionIdRef.current)) return;
        if (message.type === 'figma_sharing_instructions') {
          setModal(readHelp(message.data));
          return;
        }
        if (message.type === 'upload_completed') return; // Uploads go over HTTP here.
        const event = eventOf(message);
        if (!event) return;
        const { before, after } = dispatch(event);
        // Only about a comparison this screen is running: a late message after Stop says nothing new.
        if (before.status !== 'running') return;
        if (message.type === 'figma_permission_error') {
          toast.error(COMPARISON_TEXTS.figmaAccess, { id: 'figma-access' });
          setModal((open) => open ?? readHelp(message.data));
        } else if (after.status === 'failed') {
          toast.error(after.error ?? COMPARISON_TEXTS.failed);
        } else if (after.status === 'completed' && after.results) {
          toast.success(completedToast(after.results.overall_similarity));
        }
      }),
    [realtime.client, dispatch],
  );

  // A comparison's answers come over the socket: once it is lost, this screen will not hear the end.
  const isConnected = realtime.isConnected;
  useEffect(() => {
    if (isConnected || stateRef.current.status !== 'running') return;
    dispatch({ type: 'failed', error: CONNECTION_LOST });
    toast.error(CONNECTION_LOST, { id: 'connection-lost' });
  }, [isConnected, dispatch]);

  // ---- completion: kept with the session, and the address reopens it -------------------------
  const [searchParams, setSearchParams] = useSearchParams();
  const completedResults = state.status === 'completed' ? state.results : null;
  const restoredRef = useRef<object | null>(null);
  useEffect(() => {
    const id = sessionIdRef.current;
    if (!completedResults || !id || restoredRef.current === completedResults) return;
    // The server stored it before it answered: the past list shows it now.
    void queryClient.invalidateQueries({ queryKey: PAST_COMPARISONS_QUERY_KEY });
    const { figmaUrl: figma, websiteUrl: site, method: mode } = latest.current;
    session.save(
      {},
      {
        website_url: site.trim(),
        figma_url: mode === 'figma' ? figma.trim() : null,
        comparison_mode: mode,
        overall_similarity: completedResults.overall_similarity,
      },
    );
    // A reload (or a shared link) shows this comparison again.
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.set('session', id);
        return next;
      },
      { replace: true },
    );
  }, [completedResults, session, setSearchParams, queryClient]);

  // ---- reopening a past comparison: ?session=<id> when the screen opens, or one of the past list --
  const [reopen, setReopen] = useState(() => ({ id: searchParams.get('session'), attempt: 0 }));
  const reopenId = reopen.id;
  const stored = useStoredComparison(reopenId, reopen.attempt);
  const reopened = useRef(false);
  useEffect(() => {
    if (reopened.current || !reopenId) return;
    if (stored.isError) {
      reopened.current = true;
      const error = stored.error;
      toast.error(
        error instanceof ApiError && error.status === 404
          ? SESSION_NOT_FOUND
          : errorText(error, SESSION_NOT_FOUND),
      );
      return;
    }
    const found = stored.data;
    if (!found) return;
    reopened.current = true;
    // Something started meanwhile wins over the past one.
    if (stateRef.current.status !== 'idle') return;
    session.follow(found.session_id, found.website_url);
    sessionIdRef.current = found.session_id;
    setWebsiteUrl(found.website_url);
    if (found.comparison_type === 'figma') {
      setMethod('figma');
      setFigmaUrl(found.figma_url ?? '');
    } else {
      setMethod('image');
      // The design stays on the server under its id: New Comparison can compare it again. The server
      // names it (filename, size, thumbnail); a comparison stored without it shows the design as compared.
      const compared = Object.values(found.results.viewport_images)[0]?.design_url ?? '';
      setUpload(
        found.design ??
          (found.file_id
            ? {
                file_id: found.file_id,
                filename: 'uploaded-design.png',
                url: compared,
                thumbnail_url: compared,
              }
            : null),
      );
    }
    restoredRef.current = found.results;
    dispatch({ type: 'restored', results: found.results });
  }, [reopenId, stored.data, stored.isError, stored.error, session, dispatch]);

  /** Opens a comparison of the past list in place of what the screen shows (not while one runs). */
  const openPast = useCallback(
    (sessionId: string) => {
      if (stateRef.current.status === 'running') return;
      dispatch({ type: 'reset' });
      setSelectedIssue(null);
      reopened.current = false;
      setReopen((before) => ({ id: sessionId, attempt: before.attempt + 1 }));
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.set('session', sessionId);
          return next;
        },
        { replace: true },
      );
    },
    [dispatch, setSearchParams],
  );

  // ---- the uploaded design ---------------------------------------------------------------------
  const chooseFile = useCallback(
    async (file: File | null) => {
      if (!file) return;
      const problem = checkDesignFile(file);
      if (problem) {
        toast.error(problem);
        return;
      }
      toast.loading(COMPARISON_TEXTS.uploading, { id: UPLOAD_TOAST_ID });
      try {
        const uploaded = await uploader.mutateAsync(file);
        setUpload(uploaded);
        toast.success(COMPARISON_TEXTS.uploaded, { id: UPLOAD_TOAST_ID });
      } catch (error) {
        toast.error(errorText(error, 'Upload failed'), { id: UPLOAD_TOAST_ID });
      }
    },
    [uploader],
  );
  const removeUpload = useCallback(() => setUpload(null), []);

  // ---- start, stop, new ------------------------------------------------------------------------
  const running = state.status === 'running';
  const blocker = startBlocker({
    method,
    websiteUrl,
    figmaUrl,
    fileId: upload?.file_id ?? null,
    isConnected,
    running,
    uploading: uploader.isPending,
  });

  const start = useCallback(async () => {
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
  }, [dispatch, session]);

  const stop = useCallback(() => {
    if (stateRef.current.status !== 'running') return;
    dispatch({ type: 'stopped' });
    toast(COMPARISON_TEXTS.stopped, { id: 'comparison-stopped' });
    try {
      latest.current.realtime.send({ type: 'stop_comparison', data: { session_id: sessionIdRef.current } });
    } catch {
      // Disconnected: the server ends the comparison with the socket's other work.
    }
  }, [dispatch]);

  const reset = useCallback(() => {
    dispatch({ type: 'reset' });
    setSelectedIssue(null);
  }, [dispatch]);

  // ---- the access modal ------------------------------------------------------------------------
  const requestHelp = useCallback(() => {
    const { figmaUrl: figma, realtime: socket } = latest.current;
    setModal((open) => open ?? { serviceAccountEmail: null });
    try {
      socket.send({
        type: 'get_figma_help',
        data: {
          figma_url: isValidFigmaUrl(figma) ? figma.trim() : '',
          error_context: 'general',
          session_id: sessionIdRef.current,
        },
      });
    } catch {
      // Disconnected: the modal's own text still explains both ways.
    }
  }, []);
  const closeModal = useCallback(() => setModal(null), []);
  const acknowledgeModal = useCallback(() => {
    setModal(null);
    toast.success(COMPARISON_TEXTS.instructionsSent);
  }, []);

  // ---- results: export and copy ----------------------------------------------------------------
  const view = useMemo(() => (state.results ? viewResults(state.results) : null), [state.results]);

  const exportResults = useCallback(() => {
    const results = stateRef.current.results;
    if (!results) return;
    downloadText(exportText(results), EXPORT_FILE_NAME);
    toast.success(COMPARISON_TEXTS.exported);
  }, []);

  const copyCss = useCallback(async (css: string) => {
    try {
      await navigator.clipboard.writeText(css);
      toast.success(COMPARISON_TEXTS.cssCopied);
    } catch {
      toast.error('Could not copy to the clipboard');
    }
  }, []);

  return {
    state,
    view,
    method,
    setMethod,
    figmaUrl,
    setFigmaUrl,
    websiteUrl,
    setWebsiteUrl,
    upload,
    uploading: uploader.isPending,
    chooseFile,
    removeUpload,
    canStart: blocker === null,
    running,
    isConnected,
    start,
    stop,
    reset,
    openPast,
    currentSessionId: session.sessionId,
    modal,
    requestHelp,
    closeModal,
    acknowledgeModal,
    exportResults,
    copyCss,
    selectedIssue,
    setSelectedIssue,
    reopening: reopenId !== null && stored.isPending && !reopened.current,
  };
}

export type DesignComparisonController = ReturnType<typeof useDesignComparison>;
