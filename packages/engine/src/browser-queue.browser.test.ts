import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../fixtures/site/serve';
import { BrowserPool, queuedMessage } from './browser-pool';
import { explore } from './observe';
import { TargetPolicy } from './target-policy';

// Waiting in line for a browser (MAX_BROWSERS): the waiter is told its place, and a time budget only
// starts once the work has its browser (docs/ARCHITECTURE.md, the browser engine).
let site: Awaited<ReturnType<typeof serveFixtureSite>>;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });

beforeAll(async () => {
  site = await serveFixtureSite();
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

describe('the browser pool queue', () => {
  it('tells each waiting openSession its place in line, and again as it moves up', async () => {
    const holder = await pool.openSession();
    const second: number[] = [];
    const third: number[] = [];
    const secondOpen = pool.openSession({ onQueued: (p) => second.push(p) });
    const thirdOpen = pool.openSession({ onQueued: (p) => third.push(p) });
    expect(second).toEqual([1]);
    expect(third).toEqual([2]);
    expect(pool.stats()).toMatchObject({ active: 1, waiting: 2 });

    await holder.close();
    const secondSession = await secondOpen;
    expect(third).toEqual([2, 1]);
    await secondSession.close();
    const thirdSession = await thirdOpen;
    await thirdSession.close();
    // Neither was told anything once it had its browser.
    expect(second).toEqual([1]);
    expect(third).toEqual([2, 1]);
    expect(pool.stats()).toEqual({ active: 0, waiting: 0, max: 1 });
  });

  it('moves the line up when a waiter gives up', async () => {
    const holder = await pool.openSession();
    const stop = new AbortController();
    const quitter = pool.openSession({ signal: stop.signal }).then(
      () => null,
      (error: Error) => error,
    );
    const behind: number[] = [];
    const patient = pool.openSession({ onQueued: (p) => behind.push(p) });
    stop.abort();
    expect((await quitter)?.name).toBe('AbortedError');
    expect(behind).toEqual([2, 1]);
    await holder.close();
    await (await patient).close();
  });

  it('explores the start page even when it waited in line longer than its whole time budget', async () => {
    const holder = await pool.openSession();
    const messages: string[] = [];
    let queued: () => void = () => {};
    const inLine = new Promise<void>((resolve) => {
      queued = resolve;
    });
    const exploring = explore(pool, `${site.url}/`, {
      maxPages: 2,
      timeBudgetMs: 50,
      onProgress: (message) => {
        messages.push(message);
        if (message === queuedMessage(1)) queued();
      },
    });
    await inLine;
    // Longer in line than the budget: before the fix the budget had run out by the time the browser came.
    await new Promise((r) => setTimeout(r, 300));
    await holder.close();
    const pages = await exploring;
    expect(messages[0]).toBe('Waiting for a free browser: 1 ahead');
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages[0].url).toBe(`${site.url}/`);
    expect(pages[0].title).not.toBe('');
  });

  it('says which start page could not be opened, and why', async () => {
    await expect(explore(pool, `${site.url}/missing-page.html`)).rejects.toThrow(
      /^Could not open .*missing-page\.html.*404/,
    );
  });
});
