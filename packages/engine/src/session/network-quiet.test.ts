import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NetworkQuiet } from './network-quiet';

// The page's request events, emitted by hand: the same events Playwright's Page emits.
const fakePage = () => new EventEmitter() as EventEmitter & Page;

describe('NetworkQuiet', () => {
  it('settles once nothing has been in flight for the quiet window', async () => {
    const page = fakePage();
    const quiet = new NetworkQuiet(page);
    expect(await quiet.settled(40, 2_000)).toBe(true);
  });

  it('waits for a request in flight to finish, then the quiet window', async () => {
    const page = fakePage();
    const quiet = new NetworkQuiet(page);
    const request = {};
    page.emit('request', request);
    let settled = false;
    const waiting = quiet.settled(30, 5_000).then((done) => {
      settled = done;
      return done;
    });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(settled).toBe(false);
    page.emit('requestfinished', request);
    expect(await waiting).toBe(true);
  });

  it('gives up at its timeout while a request never ends (a page that polls), and counts a failed one as ended', async () => {
    const page = fakePage();
    const quiet = new NetworkQuiet(page);
    const polling = {};
    page.emit('request', polling);
    expect(await quiet.settled(10, 150)).toBe(false);
    page.emit('requestfailed', polling);
    expect(await quiet.settled(10, 1_000)).toBe(true);
  });
});
