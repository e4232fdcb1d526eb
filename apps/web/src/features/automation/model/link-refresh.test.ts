import { describe, expect, it } from 'vitest';
import { createLinkRefresher, LINK_RETRY_MS } from './link-refresh';
import { LINK_RENEW_MARGIN_MS, type ScreenshotItem, withFreshLinks } from './screenshots';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const link = (id: string, expiresAtMs: number, sig = 'sig') =>
  `/api/screenshots/${id}/image?owner=u1&expires=${Math.floor(expiresAtMs / 1000)}&sig=${sig}`;

function item(id: string, src: string, runId = 'run1'): ScreenshotItem {
  return {
    key: `T#${id}`,
    testName: 'T',
    stepIndex: 0,
    stepNumber: 1,
    stepName: 'Navigate',
    status: 'success',
    src,
    width: null,
    height: null,
    timestamp: '2030-01-01T12:00:00.000Z',
    fileName: 't-step-1.jpg',
    stored: { id, runId },
  };
}

/** A screen holding `items`, and a server that signs links valid for ten minutes from `clock.now`. */
function setup(initial: ScreenshotItem[]) {
  const clock = { now: NOW };
  let items = initial;
  const asked: string[] = [];
  let failNext = false;
  let release: (() => void) | null = null;
  let hold = false;
  const refresher = createLinkRefresher({
    items: () => items,
    now: () => clock.now,
    fetchLinks: async (runId) => {
      asked.push(runId);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (failNext) {
        failNext = false;
        throw new Error('HTTP error! status: 500');
      }
      return items
        .filter((i) => i.stored?.runId === runId)
        .map((i) => ({
          id: i.stored?.id as string,
          url: link(i.stored?.id as string, clock.now + 600_000, 'fresh'),
        }));
    },
    apply: (refs) => {
      items = withFreshLinks(items, refs);
    },
  });
  return {
    clock,
    refresher,
    asked,
    items: () => items,
    failOnce: () => (failNext = true),
    holdRequests: () => (hold = true),
    releaseRequest: () => {
      hold = false;
      release?.();
    },
  };
}

describe('renewing expired screenshot links', () => {
  it('asks for nothing while every link has more than the margin left, nor for inline images', async () => {
    const inline = { ...item('x', 'data:image/jpeg;base64,AAAA'), stored: undefined };
    const s = setup([item('a', link('a', NOW + LINK_RENEW_MARGIN_MS + 1000)), inline]);
    await s.refresher.ensureFresh();
    await s.refresher.imageFailed(inline);
    expect(s.asked).toEqual([]);
  });

  it('renews a link that is about to expire, once per run, and swaps the fresh link in', async () => {
    const s = setup([
      item('a', link('a', NOW + 10_000)),
      item('b', link('b', NOW + 900_000)),
      item('c', link('c', NOW - 1000), 'run2'),
    ]);
    await s.refresher.ensureFresh();
    expect(s.asked.sort()).toEqual(['run1', 'run2']);
    expect(s.items().map((i) => new URL(i.src, 'http://x').searchParams.get('sig'))).toEqual([
      'fresh',
      'fresh',
      'fresh',
    ]);
    expect(
      s.items().every((i) => Number(new URL(i.src, 'http://x').searchParams.get('expires')) > NOW / 1000),
    ).toBe(true);
    // Fresh now: nothing more to ask.
    await s.refresher.ensureFresh();
    expect(s.asked).toHaveLength(2);
  });

  it('renews on a failed image, shares a request in flight, and does not loop on an image that keeps failing', async () => {
    const s = setup([item('a', link('a', NOW + 900_000)), item('b', link('b', NOW + 900_000))]);
    s.holdRequests();
    const first = s.refresher.imageFailed(s.items()[0]);
    const second = s.refresher.imageFailed(s.items()[1]);
    s.releaseRequest();
    await Promise.all([first, second]);
    expect(s.asked).toEqual(['run1']);
    // It fails again at once (the screenshot is gone): not asked again until LINK_RETRY_MS passed.
    await s.refresher.imageFailed(s.items()[0]);
    expect(s.asked).toEqual(['run1']);
    s.clock.now += LINK_RETRY_MS;
    await s.refresher.imageFailed(s.items()[0]);
    expect(s.asked).toEqual(['run1', 'run1']);
  });

  it('keeps the images as they are when the list cannot be fetched, and asks again later', async () => {
    const old = link('a', NOW - 1000);
    const s = setup([item('a', old)]);
    s.failOnce();
    await s.refresher.ensureFresh();
    expect(s.items()[0].src).toBe(old);
    await s.refresher.ensureFresh();
    expect(s.items()[0].src).not.toBe(old);
    expect(s.asked).toEqual(['run1', 'run1']);
  });
});
