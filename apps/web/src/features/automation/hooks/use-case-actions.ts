import type { TestCase } from '@argus/protocol';
import { useCallback, useMemo } from 'react';
import toast from 'react-hot-toast';
import { downloadJson, downloadUrl } from '../../../lib/download';
import { getRunScreenshots } from '../api/run-screenshots';
import { isBusy } from '../model/execution';
import { createLinkRefresher } from '../model/link-refresh';
import { NOTICES } from '../model/notifications';
import { buildExport, exportFileName } from '../model/results';
import { DOWNLOAD_SPACING_MS, type ScreenshotItem } from '../model/screenshots';
import { isAbsoluteHttpUrl } from '../model/validation';
import type { AutomationCore } from './automation-core';
import type { AutomationSession } from './use-automation-session';

/** The cases the user edits (add a written case, remove one) and Clear Results, each kept with the session. */
export function useCaseActions(core: AutomationCore, session: AutomationSession) {
  const { store, inputs } = core;
  const { url, mode, command } = inputs;
  const { projectProblem } = inputs.project;
  const { ensureSession, persist } = session;

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

  return { addCustomCase, removeCase, clearResults };
}

/** What leaves the screen: screenshots (opened, downloaded) and the results export. */
export function useResultsOutput(core: AutomationCore) {
  const { store, inputs } = core;
  const { url, mode, command } = inputs;

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
  return { onImageError, downloadScreenshots, exportResults };
}
