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
  /** `data:image/jpeg;base64,...`, or the stored image's signed link for a run this screen joined late. */
  src: string;
  /** For a stored image: its screenshot and run, so an expired link can be replaced by a fresh one. */
  stored?: { id: string; runId: string };
  width: number | null;
  height: number | null;
  timestamp: string;
  /** A file name for downloads. */
  fileName: string;
}

/** The image inside a step update (docs/PRODUCT.md#step-log: base64_data, data or image_data) as a data URL. */
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
 * The screenshot a step update carries, or null (pending updates carry none). `storedUrl` (a signed
 * link to the image stored in run `runId`) stands in for the image when the update comes without one
 * (a step replayed by automation_in_progress).
 */
export function screenshotFromStep(
  testName: string,
  step: StepUpdate,
  storedUrl?: string,
  runId?: string,
): ScreenshotItem | null {
  const inline = screenshotDataUrl(step.screenshot);
  const src = inline ?? storedUrl ?? null;
  if (!src) return null;
  const stepIndex = stepIndexOf(step);
  const link = inline ? null : signedLink(src);
  return {
    ...(link && runId ? { stored: { id: link.id, runId } } : {}),
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

const STORED_IMAGE = /^\/api\/screenshots\/([^/?#]+)\/image(?:\?(.*))?$/;

/**
 * A stored image's link (`/api/screenshots/<id>/image?owner=…&expires=<unix s>&sig=…`): its
 * screenshot id and when it stops opening (ms since the epoch; null when it names no expiry).
 * Null for anything else, such as a data: URL.
 */
export function signedLink(src: string): { id: string; expiresAt: number | null } | null {
  const match = STORED_IMAGE.exec(src);
  if (!match) return null;
  const expires = Number(new URLSearchParams(match[2] ?? '').get('expires') ?? Number.NaN);
  return {
    id: decodeURIComponent(match[1]),
    expiresAt: Number.isFinite(expires) && expires > 0 ? expires * 1000 : null,
  };
}

/** A link this close to its expiry is renewed before use (a download); clocks differ a little. */
export const LINK_RENEW_MARGIN_MS = 30_000;

/** The runs whose stored images hold a link that has expired or soon will. */
export function runsWithStaleLinks(
  items: readonly ScreenshotItem[],
  now: number,
  marginMs = LINK_RENEW_MARGIN_MS,
): string[] {
  const runs = new Set<string>();
  for (const item of items) {
    if (!item.stored) continue;
    const expiresAt = signedLink(item.src)?.expiresAt ?? null;
    if (expiresAt === null || expiresAt - marginMs <= now) runs.add(item.stored.runId);
  }
  return [...runs];
}

/**
 * Stored images with the fresh links of a screenshot list (`GET /api/screenshots/test-run/<run>`),
 * matched by screenshot id. The same array when nothing changed.
 */
export function withFreshLinks(
  items: ScreenshotItem[],
  refs: readonly { id: string; url: string }[],
): ScreenshotItem[] {
  const fresh = new Map(refs.map((ref) => [ref.id, ref.url]));
  let changed = false;
  const next = items.map((item) => {
    const url = item.stored ? fresh.get(item.stored.id) : undefined;
    if (!url || url === item.src || signedLink(url)?.id !== item.stored?.id) return item;
    changed = true;
    return { ...item, src: url };
  });
  return changed ? next : items;
}

/** Adds a screenshot, replacing an earlier one of the same step. */
export function addScreenshot(items: readonly ScreenshotItem[], item: ScreenshotItem): ScreenshotItem[] {
  const at = items.findIndex((existing) => existing.key === item.key);
  if (at < 0) return [...items, item];
  const next = items.slice();
  next[at] = item;
  return next;
}

/** docs/PRODUCT.md#screenshots: 'Download All' spaces its downloads 100 ms apart. */
export const DOWNLOAD_SPACING_MS = 100;
