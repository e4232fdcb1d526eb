/** Frames per second over the last second's arrivals (timestamps in ms, newest last). */
export function framesPerSecond(arrivals: readonly number[], now: number): number {
  return arrivals.filter((t) => now - t <= 1000).length;
}

/** Whether the live run video is on (kept per browser, off by default). */
export const RUN_VIDEO_KEY = 'argus.automation.video';

export function readVideoPreference(storage: Pick<Storage, 'getItem'> | undefined): boolean {
  try {
    return storage?.getItem(RUN_VIDEO_KEY) === 'on';
  } catch {
    return false;
  }
}

export function writeVideoPreference(storage: Pick<Storage, 'setItem'> | undefined, on: boolean): void {
  try {
    storage?.setItem(RUN_VIDEO_KEY, on ? 'on' : 'off');
  } catch {
    // Private mode or a full store: the toggle still works for this page.
  }
}
