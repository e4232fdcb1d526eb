import type { StepUpdate } from '@argus/protocol';
import { logKey, stepIndexOf } from './step-log';

/** A screenshot taken after a step, ready to show. */
export interface ScreenshotItem {
  key: string;
  testName: string;
  stepIndex: number;
  stepNumber: number;
  /** The step line it was taken after. */
  stepName: string;
  status: StepUpdate['status'];
  /** `data:image/jpeg;base64,...`, or the stored image's URL for a run this screen joined late. */
  src: string;
  width: number | null;
  height: number | null;
  timestamp: string;
  /** A file name for downloads. */
  fileName: string;
}

/** The image inside a step update (spec §3: base64_data, data or image_data) as a data URL. */
export function screenshotDataUrl(shot: StepUpdate['screenshot']): string | null {
  const raw = shot?.base64_data || shot?.data || shot?.image_data;
  if (!raw) return null;
  if (raw.startsWith('data:image/')) return raw;
  return `data:image/jpeg;base64,${raw}`;
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'test'
  );
}

export function screenshotFileName(testName: string, stepNumber: number): string {
  return `${slug(testName)}-step-${stepNumber}.jpg`;
}

/**
 * The screenshot a step update carries, or null (pending updates carry none). `storedUrl` stands in
 * for the image when the update comes without one (a step replayed by automation_in_progress).
 */
export function screenshotFromStep(
  testName: string,
  step: StepUpdate,
  storedUrl?: string,
): ScreenshotItem | null {
  const src = screenshotDataUrl(step.screenshot) ?? storedUrl ?? null;
  if (!src) return null;
  const stepIndex = stepIndexOf(step);
  return {
    key: logKey(testName, stepIndex),
    testName,
    stepIndex,
    stepNumber: step.step_number,
    stepName: step.description || step.action,
    status: step.status,
    src,
    width: step.screenshot?.width ?? null,
    height: step.screenshot?.height ?? null,
    timestamp: step.timestamp,
    fileName: screenshotFileName(testName, step.step_number),
  };
}

/** Adds a screenshot, replacing an earlier one of the same step. */
export function addScreenshot(items: readonly ScreenshotItem[], item: ScreenshotItem): ScreenshotItem[] {
  const at = items.findIndex((existing) => existing.key === item.key);
  if (at < 0) return [...items, item];
  const next = items.slice();
  next[at] = item;
  return next;
}

/** Spec §2: 'Download All' spaces its downloads 100 ms apart. */
export const DOWNLOAD_SPACING_MS = 100;
