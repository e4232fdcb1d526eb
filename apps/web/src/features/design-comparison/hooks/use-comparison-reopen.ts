import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { type SetURLSearchParams, useSearchParams } from 'react-router';
import { ApiError, errorText } from '../../../lib/api-error';
import { useStoredComparison } from '../api/get-comparison';
import { PAST_COMPARISONS_QUERY_KEY } from '../api/list-comparisons';
import type { ComparisonState } from '../model/comparison-state';
import type { ComparisonCore } from './comparison-core';

type ComparisonResults = NonNullable<ComparisonState['results']>;

/** 'Session not found' (docs/PRODUCT.md#comparison-texts): a `?session=` naming no comparison of this user. */
const SESSION_NOT_FOUND = 'Session not found';

/** The address names the comparison shown (`?session=<id>`), so a reload or a shared link shows it again. */
function showInAddress(setSearchParams: SetURLSearchParams, sessionId: string) {
  setSearchParams(
    (params) => {
      const next = new URLSearchParams(params);
      next.set('session', sessionId);
      return next;
    },
    { replace: true },
  );
}

/**
 * A completed comparison kept with its session and named in the address; a past one reopened with
 * `?session=<id>` when the screen opens, or from the past list.
 */
export function useComparisonReopen(core: ComparisonCore, completedResults: ComparisonResults | null) {
  const [searchParams, setSearchParams] = useSearchParams();
  useKeepCompleted(core, completedResults, setSearchParams);
  const [reopen, setReopen] = useState(() => ({ id: searchParams.get('session'), attempt: 0 }));
  const reopenId = reopen.id;
  const stored = useStoredComparison(reopenId, reopen.attempt);
  const reopened = useRef(false);
  useApplyStored(core, reopenId, stored, reopened);

  /** Opens a comparison of the past list in place of what the screen shows (not while one runs). */
  const { stateRef, dispatch } = core;
  const { setSelectedIssue } = core.inputs;
  const openPast = useCallback(
    (sessionId: string) => {
      if (stateRef.current.status === 'running') return;
      dispatch({ type: 'reset' });
      setSelectedIssue(null);
      reopened.current = false;
      setReopen((before) => ({ id: sessionId, attempt: before.attempt + 1 }));
      showInAddress(setSearchParams, sessionId);
    },
    [dispatch, setSearchParams, stateRef, setSelectedIssue],
  );

  return { openPast, reopening: reopenId !== null && stored.isPending && !reopened.current };
}

/** Completion: kept with the session (the past list refreshed), and the address reopens it. */
function useKeepCompleted(
  { sessionIdRef, restoredRef, latest, session }: ComparisonCore,
  completedResults: ComparisonResults | null,
  setSearchParams: SetURLSearchParams,
) {
  const queryClient = useQueryClient();
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
    showInAddress(setSearchParams, id);
  }, [completedResults, session, setSearchParams, queryClient, sessionIdRef, restoredRef, latest]);
}

/** The stored comparison, once loaded, shown with its inputs (unless something started meanwhile). */
function useApplyStored(
  core: ComparisonCore,
  reopenId: string | null,
  stored: ReturnType<typeof useStoredComparison>,
  reopened: { current: boolean },
) {
  const { stateRef, dispatch, session, sessionIdRef, restoredRef } = core;
  const { setWebsiteUrl, setMethod, setFigmaUrl, setUpload } = core.inputs;
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
  }, [
    reopenId,
    stored.data,
    stored.isError,
    stored.error,
    session,
    dispatch,
    reopened,
    stateRef,
    sessionIdRef,
    restoredRef,
    setWebsiteUrl,
    setMethod,
    setFigmaUrl,
    setUpload,
  ]);
}
