import { useCallback, useMemo } from 'react';
import toast from 'react-hot-toast';
import { downloadText } from '../../../lib/download';
import type { ComparisonState } from '../model/comparison-state';
import { exportText, viewResults } from '../model/results';
import { COMPARISON_TEXTS, EXPORT_FILE_NAME } from '../model/texts';
import type { ComparisonCore } from './comparison-core';

/** The results as the screen shows them, their export and the suggested CSS copied. */
export function useComparisonOutput({ stateRef }: ComparisonCore, results: ComparisonState['results']) {
  const view = useMemo(() => (results ? viewResults(results) : null), [results]);

  const exportResults = useCallback(() => {
    const current = stateRef.current.results;
    if (!current) return;
    downloadText(exportText(current), EXPORT_FILE_NAME);
    toast.success(COMPARISON_TEXTS.exported);
  }, [stateRef]);

  const copyCss = useCallback(async (css: string) => {
    try {
      await navigator.clipboard.writeText(css);
      toast.success(COMPARISON_TEXTS.cssCopied);
    } catch {
      toast.error('Could not copy to the clipboard');
    }
  }, []);

  return { view, exportResults, copyCss };
}
