import {
  type VisualBaseline,
  VisualBaselineSchema,
  type VisualBox,
  type VisualCheckSettings,
  type VisualElementMask,
} from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { baselineKeys, baselinePath } from './keys';

export interface SettingsVariables {
  baselineId: string;
  user_masks: VisualBox[];
  /** The masks named by an element's text or role. */
  element_masks: VisualElementMask[];
  /** The share of pixels that may differ, 0–0.5. */
  threshold: number;
}

/**
 * PUT /api/visual-baselines/{id}/settings: the check's own masks (rectangles in capture pixels, and
 * elements by text or role) and threshold.
 */
export function saveCheckSettings({
  baselineId,
  user_masks,
  element_masks,
  threshold,
}: SettingsVariables): Promise<VisualBaseline> {
  const body: VisualCheckSettings = { user_masks, element_masks, threshold };
  return apiRequest(baselinePath(baselineId, 'settings'), { method: 'PUT', body }, VisualBaselineSchema);
}

export function useSaveCheckSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCheckSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: baselineKeys.all }),
  });
}
