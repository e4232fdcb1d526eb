import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Box, intersection } from '../regions';
import { compareWithBaseline } from './compare-baseline';
import { captureSettled } from './settled-capture';

/**
 * A page with a clock that ticks every 100 ms (its text changes by itself) and a static coloured
 * box: the settled capture must mask the clock and only the clock, and two settled captures of the
 * page, compared with those masks, must find nothing changed.
 */
const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; font: 20px/1.2 monospace; background: #fff; }
  #clock { position: absolute; left: 40px; top: 40px; }
  #box { position: absolute; left: 400px; top: 200px; width: 240px; height: 120px; background: #2e7d32; }
  #title { position: absolute; left: 40px; top: 400px; }
</style></head><body>
  <div id="clock"></div><div id="box"></div><p id="title">Static heading</p>
  <script>
    const clock = document.getElementById('clock');
    const tick = () => {
      const now = new Date();
      clock.textContent = now.toISOString().slice(11, 19) + '.' + String(now.getMilliseconds()).padStart(3, '0');
    };
    tick();
    setInterval(tick, 100);
  </script>
</body></html>`;

const VIEWPORT = { width: 1024, height: 600 };

let server: Server;
let site: string;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function boxOf(
  session: Awaited<ReturnType<BrowserPool['openSession']>>,
  selector: string,
): Promise<Box> {
  return session.evaluate((s: string) => {
    const r = document.querySelector(s)!.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  }, selector);
}

describe('captureSettled', () => {
  it('masks the ticking clock and not the static box, and two settled captures then compare unchanged', async () => {
    const session = await pool.openSession({ viewport: VIEWPORT });
    try {
      await session.navigate(site);
      const clock = await boxOf(session, '#clock');
      const box = await boxOf(session, '#box');
      const first = await captureSettled(session, { settleMs: 1_000 });
      expect(first.image.width).toBe(VIEWPORT.width);
      // The whole clock line is masked (its minutes will change later too), and nothing else.
      const covered = first.moving.reduce((sum, m) => sum + intersection(m, clock), 0);
      expect(covered).toBeGreaterThanOrEqual(Math.floor(clock.width) * Math.floor(clock.height) * 0.95);
      expect(first.moving.every((m) => intersection(m, box) === 0)).toBe(true);
      expect(first.moving.every((m) => m.y < box.y && m.x < box.x)).toBe(true);

      // Later, as the next run would: what moved in either capture is masked.
      const second = await captureSettled(session, { settleMs: 1_000 });
      const ignore = [...first.moving, ...second.moving];
      const result = compareWithBaseline({ baseline: first.image, current: second.image, ignore });
      expect(result).toMatchObject({ changed: false, changedPixels: 0, issues: [] });
      // Not by chance: without the masks the clock is a difference.
      expect(compareWithBaseline({ baseline: first.image, current: second.image }).changed).toBe(true);
    } finally {
      await session.close();
    }
  });
});
