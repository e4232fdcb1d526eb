import type { Locator } from 'playwright-core';
import { AbortedError } from '../errors';

/** Checks until `check` holds or the time is up (every 50 ms); stops with `AbortedError` once `signal` aborts. */
export async function poll(
  check: () => Promise<boolean>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) throw new AbortedError();
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether some match becomes visible (or every match goes away) within the timeout. Appearing uses
 * Playwright's own waiting, which reacts to DOM changes; polling would add up to an interval per check.
 */
export async function visibility(
  locator: Locator,
  visible: boolean,
  timeout: number,
  signal: AbortSignal,
): Promise<boolean> {
  const shown = locator.filter({ visible: true });
  if (!visible) return poll(async () => (await shown.count()) === 0, timeout, signal);
  return shown
    .first()
    .waitFor({ state: 'visible', timeout })
    .then(
      () => true,
      () => false,
    );
}

/** Fails with the problems found (the first five, and how many more), if any. */
export function fail(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).join('; ');
  throw new Error(problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown);
}
