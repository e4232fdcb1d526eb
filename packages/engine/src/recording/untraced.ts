import type { BrowserContext, Frame, Locator, Page, Request, Response } from 'playwright-core';

/** Anything of playwright-core's client that talks to the browser. */
export type TraceOwner = Page | Frame | Locator | BrowserContext | Request | Response;

/** The private method of playwright-core's `ChannelOwner` that `untraced` runs its work through. */
interface ApiCallWrapper {
  _wrapApiCall?: <T>(work: () => Promise<T>, options: { internal: boolean; title?: string }) => Promise<T>;
}

/**
 * Runs `work` (reads of the page by the engine: locating a target, polling a count, observing) so that
 * none of its calls enters a case's Playwright trace. The tracer takes a DOM snapshot before and after
 * every traced call and films the page at full rate for half a second after it; the engine reads the page
 * many times a step, so tracing its reads costs a case far more than its actions do, and fills the
 * viewer's action list with them (docs/PERFORMANCE.md). Actions (goto, click, fill…) must stay outside.
 *
 * How: playwright-core sends a call made inside `ChannelOwner._wrapApiCall(fn, { internal: true })` with
 * `metadata.internal`, which its tracer skips (no event, no snapshot); calls nested in it share its zone
 * (an AsyncLocalStorage, so every call `work` makes, however deep, is covered). `_wrapApiCall` is private
 * API of the pinned playwright-core version: where it is missing, `work` simply runs, traced.
 * `untraced.browser.test.ts` reads a recorded trace, so an upgrade that changes this fails loudly.
 *
 * Errors are handed back untouched: `work`'s failure is carried out of the wrapper, which would otherwise
 * rewrite its stack. Playwright errors of calls inside lose their `locator.count: ` prefix, since the
 * nested call reuses this zone; the engine's reads catch those or throw messages of their own.
 */
export async function untraced<T>(owner: TraceOwner, work: () => Promise<T>): Promise<T> {
  const wrapper = owner as unknown as ApiCallWrapper;
  if (typeof wrapper._wrapApiCall !== 'function') return work();
  let failed: { error: unknown } | null = null;
  const result = await wrapper._wrapApiCall(
    async () => {
      try {
        return await work();
      } catch (error) {
        failed = { error };
        return undefined;
      }
    },
    // An empty title: nothing is prefixed to an error's message (none leaves the wrapper anyway).
    { internal: true, title: '' },
  );
  if (failed) throw (failed as { error: unknown }).error;
  return result as T;
}
