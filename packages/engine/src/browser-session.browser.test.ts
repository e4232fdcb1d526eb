import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStep, TestCaseSchema, URL_SCHEME_REFUSED } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { jpegSize, type ScreencastFrame } from './browser-session';
import { AbortedError } from './errors';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';

/**
 * BrowserSession against real Chromium and pages served here on 127.0.0.1: a session held across
 * calls with a screencast running, back-pressure from a slow frame consumer, input at viewport
 * coordinates, stopping, the idle timeout, and the scheme check on every navigation.
 */

const PAGES: Record<string, string> = {
  '/form': `<title>Form</title>
    <style>body{margin:0;font:16px sans-serif} #name{position:absolute;left:100px;top:40px;width:200px;height:30px}
      #greet{position:absolute;left:100px;top:100px;width:120px;height:40px}</style>
    <label for="name">Name</label><input id="name">
    <button id="greet" onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value">Greet</button>
    <p id="out" style="position:absolute;top:200px"></p>`,
  '/ticker': `<title>Ticker</title><div id="t" style="width:100vw;height:100vh"></div>
    <script>let n = 0; (function tick() { const t = document.getElementById('t'); t.textContent = ++n;
      t.style.background = 'hsl(' + (n * 7 % 360) + ',80%,50%)'; requestAnimationFrame(tick); })();</script>`,
  '/colour': `<title>Colour</title><style>html,body{margin:0;height:100%;background:rgb(0,160,0)}</style>
    <button onclick="document.body.style.background='rgb(220,0,0)'; document.documentElement.style.background='rgb(220,0,0)'">Turn red</button>`,
  '/events': `<title>Events</title><style>body{margin:0;height:3000px}</style><p id="log" style="position:fixed;top:0">none</p>
    <script>const log = (s) => (document.getElementById('log').textContent = s);
      addEventListener('mousedown', (e) => log('down ' + e.clientX + ',' + e.clientY + ' button ' + e.button));
      addEventListener('mouseup', (e) => log('up ' + e.clientX + ',' + e.clientY + ' button ' + e.button));
      addEventListener('scroll', () => log('scrolled ' + Math.round(scrollY)));</script>`,
  '/tall': `<title>Tall</title><style>body{margin:0} #top{height:1500px;background:rgb(0,0,200)}
      #bottom{height:1000px;background:rgb(200,0,0)} input{position:absolute;top:10px;left:10px}</style>
    <div id="top"></div><div id="bottom"></div><input id="field" autofocus>`,
  '/late-button': `<title>Late</title><p id="out">not clicked</p>
    <script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Appears late';
      b.onclick = () => (document.getElementById('out').textContent = 'clicked'); document.body.append(b); }, 800);</script>`,
};

let server: Server;
let site: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') {
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>slow</h1>'),
        8_000,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const page = PAGES[req.url ?? ''];
    if (page) res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
afterAll(() => pool.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await sleep(25);
  }
}
const isJpeg = (data: Buffer) => data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

/** The colour at the centre of a JPEG, decoded by Chromium itself. */
async function centreColour(jpeg: Buffer): Promise<[number, number, number]> {
  return pool.withContext(async (context) => {
    const page = await context.newPage();
    return page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/jpeg;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const [r, g, b] = ctx.getImageData(img.width / 2, img.height / 2, 1, 1).data;
      return [r, g, b] as [number, number, number];
    }, jpeg.toString('base64'));
  });
}
const isRed = ([r, g]: number[]) => r > 150 && g < 80;
const isGreen = ([r, g]: number[]) => g > 100 && r < 80;

describe('a BrowserSession held across calls', () => {
  it('navigates, performs steps, observes and photographs while a screencast streams and is acknowledged', async () => {
    const frames: ScreencastFrame[] = [];
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    try {
      expect(pool.stats().active).toBe(1);
      await session.startScreencast(
        async (frame) => {
          frames.push(frame);
        },
        { maxWidth: 400, maxHeight: 300, quality: 50 },
      );
      const opened = await session.navigate(`${site}/form`);
      expect(opened).toMatchObject({ status: 200, url: `${site}/form` });
      expect(await session.perform(parseStep('Fill "Name" with "Ada"'))).toBe('label="Name"');
      expect(await session.perform(parseStep('Click button "Greet"'))).toMatch(/^role=button/);
      await session.perform(parseStep('Verify text "Hello, Ada" is visible'));
      const observation = await session.observe();
      expect(observation).toMatchObject({ url: `${site}/form`, status: 200, title: 'Form' });
      expect(observation.buttons).toContain('Greet');
      expect(observation.forms).toEqual([]);
      const shot = await session.screenshot();
      expect(isJpeg(shot.data)).toBe(true);
      expect(jpegSize(shot.data)).toEqual({ width: 800, height: 600 });
      expect(shot).toMatchObject({ width: 800, height: 600 });
      expect(frames.length).toBeGreaterThan(0);

      // An animated page repaints continuously: frames keep coming only because each is acknowledged
      // (Chromium stops after a few unacknowledged ones).
      await session.navigate(`${site}/ticker`);
      const before = frames.length;
      await until(() => frames.length >= before + 30);
      for (const frame of frames) {
        expect(isJpeg(frame.data)).toBe(true);
        expect(jpegSize(frame.data)).toEqual({ width: frame.width, height: frame.height });
        expect(frame.width).toBeLessThanOrEqual(400);
        expect(frame.height).toBeLessThanOrEqual(300);
        expect(frame.viewport).toEqual({ width: 800, height: 600 });
      }

      await session.stopScreencast();
      const stoppedAt = frames.length;
      await sleep(500);
      expect(frames.length).toBeLessThanOrEqual(stoppedAt + 1); // at most one already being delivered
      expect(session.url).toBe(`${site}/ticker`);
    } finally {
      await session.close();
    }
    expect(session.closed).toBe(true);
    expect(session.closeReason).toBe('closed');
    expect(pool.stats().active).toBe(0);
    await session.close(); // idempotent
    expect(pool.stats().active).toBe(0);
  });

  it('gives a slow frame consumer the latest frame, one at a time, without a growing backlog', async () => {
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    try {
      await session.navigate(`${site}/ticker`); // repaints at the display rate, ~60 frames a second
      const delivered: { at: number; producedAt: number }[] = [];
      let inConsumer = 0;
      let mostAtOnce = 0;
      const started = Date.now();
      await session.startScreencast(
        async (frame) => {
          inConsumer++;
          mostAtOnce = Math.max(mostAtOnce, inConsumer);
          delivered.push({ at: Date.now(), producedAt: frame.timestamp });
          await sleep(250); // a consumer four times slower than one frame per 60 ms
          inConsumer--;
        },
        { maxWidth: 320, maxHeight: 240 },
      );
      await sleep(3_000);
      await session.stopScreencast();
      const elapsed = Date.now() - started;

      expect(mostAtOnce).toBe(1);
      // The consumer's pace, not the page's: at most one frame per 250 ms (and the one in hand).
      expect(delivered.length).toBeGreaterThanOrEqual(4);
      expect(delivered.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
      // Each frame handed over is recent: it waited at most for the frame before it to be consumed. A
      // queue would make this lag grow by ~200 ms with every frame.
      const lags = delivered.map((d) => d.at - d.producedAt);
      expect(Math.max(...lags)).toBeLessThan(1_000);
      const firstHalf = lags.slice(0, Math.floor(lags.length / 2));
      const secondHalf = lags.slice(Math.floor(lags.length / 2));
      expect(Math.max(...secondHalf)).toBeLessThan(Math.max(...firstHalf) + 500);
      for (let i = 1; i < delivered.length; i++)
        expect(delivered[i].producedAt).toBeGreaterThan(delivered[i - 1].producedAt);
    } finally {
      await session.close();
    }
  });

  it('clicks at viewport coordinates, types, presses keys, scrolls and sends raw pointer events', async () => {
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    try {
      await session.navigate(`${site}/form`);
      await session.pointer({ type: 'click', x: 150, y: 55 }); // inside the Name field
      await session.type('Gracex');
      await session.key({ type: 'press', key: 'Backspace' });
      await session.pointer({ type: 'click', x: 160, y: 120 }); // the Greet button
      await session.perform(parseStep('Verify text "Hello, Grace" is visible'));
      await session.perform(parseStep('Verify field "Name" has value "Grace"'));

      await session.navigate(`${site}/events`);
      await session.pointer({ type: 'move', x: 300, y: 200 });
      await session.pointer({ type: 'down', x: 310, y: 210, button: 'right' });
      await session.perform(parseStep('Verify text "down 310,210 button 2" is visible'));
      await session.pointer({ type: 'up', x: 320, y: 220, button: 'right' });
      await session.perform(parseStep('Verify text "up 320,220 button 2" is visible'));
      await session.wheel({ x: 400, y: 300, deltaX: 0, deltaY: 300 });
      await session.perform(parseStep('Verify text "scrolled 300" is visible'));

      await expect(session.pointer({ type: 'click', x: Number.NaN, y: 1 })).rejects.toThrow(RangeError);
      await expect(session.key({ type: 'press', key: '' })).rejects.toThrow(RangeError);
    } finally {
      await session.close();
    }
  });

  it('takes a screenshot of the page as it was when asked for, even when a change is performed at once', async () => {
    const session = await pool.openSession({ viewport: { width: 400, height: 300 } });
    try {
      await session.navigate(`${site}/colour`);
      const before = session.screenshot(); // not awaited: the click below must not show in it
      await session.perform(parseStep('Click button "Turn red"'));
      const after = await session.screenshot();
      expect(isGreen(await centreColour((await before).data))).toBe(true);
      expect(isRed(await centreColour(after.data))).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe('stopping a session', () => {
  it("an operation's own signal rejects it with AbortedError and leaves the session usable", async () => {
    const session = await pool.openSession();
    try {
      await session.navigate(`${site}/form`);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const started = Date.now();
      await expect(
        session.perform(parseStep('Wait 8 seconds'), { signal: controller.signal }),
      ).rejects.toBeInstanceOf(AbortedError);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(session.closed).toBe(false);
      await session.perform(parseStep('Fill "Name" with "still here"'));
      await session.perform(parseStep('Verify field "Name" has value "still here"'));

      // A step stopped while it looks for its target gives up looking: it never clicks later.
      await session.navigate(`${site}/late-button`);
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 200);
      await expect(
        session.perform(parseStep('Click "Appears late"'), { signal: stop.signal }),
      ).rejects.toBeInstanceOf(AbortedError);
      await sleep(1_500); // the button has appeared by now
      await session.perform(parseStep('Verify text "not clicked" is visible'));
      await session.perform(parseStep('Verify button "Appears late" is visible'));
    } finally {
      await session.close();
    }
  });

  it("the session's signal rejects the operation in flight, closes the session and frees its slot", async () => {
    const controller = new AbortController();
    const reasons: string[] = [];
    const session = await pool.openSession({
      signal: controller.signal,
      onClose: (reason) => reasons.push(reason),
    });
    await session.navigate(`${site}/form`);
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await expect(session.navigate(`${site}/slow`)).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(3_000);
    await until(() => reasons.length > 0);
    expect(reasons).toEqual(['aborted']);
    expect(session.closeReason).toBe('aborted');
    expect(pool.stats().active).toBe(0);
    await expect(session.observe()).rejects.toBeInstanceOf(AbortedError);
  });

  it('closing the session rejects the operation in flight', async () => {
    const session = await pool.openSession();
    await session.navigate(`${site}/form`);
    const waiting = session.perform(parseStep('Wait 8 seconds')).catch((error: unknown) => error);
    await sleep(200);
    await session.close();
    expect(await waiting).toBeInstanceOf(AbortedError);
    await expect(session.navigate(`${site}/form`)).rejects.toThrow('The browser session is closed (closed)');
  });
});

describe('the idle timeout', () => {
  it('closes an unused session and frees its pool slot for the next in line', async () => {
    const single = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
      maxContexts: 1,
    });
    try {
      const reasons: string[] = [];
      const session = await single.openSession({
        idleTimeoutMs: 400,
        onClose: (reason) => reasons.push(reason),
      });
      // An operation longer than the timeout is not idleness.
      await session.navigate(`${site}/form`);
      await session.perform(parseStep('Wait 700 ms'));
      expect(session.closed).toBe(false);
      expect(single.stats()).toMatchObject({ active: 1 });

      const next = single.openSession(); // waits for the only slot
      await sleep(50);
      expect(single.stats()).toMatchObject({ active: 1, waiting: 1 });
      const second = await next;
      expect(reasons).toEqual(['idle']);
      expect(session.closeReason).toBe('idle');
      await expect(session.observe()).rejects.toThrow('The browser session is closed (idle)');
      expect(single.stats()).toMatchObject({ active: 1, waiting: 0 });
      await second.close();
      expect(single.stats()).toMatchObject({ active: 0, waiting: 0 });
    } finally {
      await single.close();
    }
  });
});

describe('the pool underneath', () => {
  it('closing the pool ends its held sessions (reason pool-closed) and rejects opening more', async () => {
    const own = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
      maxContexts: 1,
    });
    const reasons: string[] = [];
    const session = await own.openSession({ onClose: (reason) => reasons.push(reason) });
    await session.navigate(`${site}/form`);
    await own.close();
    await until(() => reasons.length > 0);
    expect(reasons).toEqual(['pool-closed']);
    expect(session.closed).toBe(true);
    await expect(own.openSession()).rejects.toThrow('The browser pool is closed');
  });
});

describe('the target policy in a session', () => {
  it.each([
    'file:///etc/hostname',
    'chrome://version',
    'view-source:http://127.0.0.1/',
    'javascript:alert(1)',
    'data:text/html,<h1>forged</h1>',
    'file:etc/hostname',
  ])('navigate refuses %s with the policy message and stays where it was', async (target) => {
    const session = await pool.openSession();
    try {
      await session.navigate(`${site}/form`);
      await expect(session.navigate(target)).rejects.toThrow(URL_SCHEME_REFUSED);
      await expect(session.perform({ verb: 'navigate', url: target })).rejects.toThrow(URL_SCHEME_REFUSED);
      expect(session.url).toBe(`${site}/form`);
      expect((await session.observe()).title).toBe('Form');
    } finally {
      await session.close();
    }
  });

  it('navigate gives the proxy’s reason for a refused host', async () => {
    const strict = new BrowserPool({ policy: new TargetPolicy() });
    try {
      const session = await strict.openSession();
      await expect(session.navigate(`${site}/form`)).rejects.toThrow(
        'Blocked by the target policy: 127.0.0.1 is a loopback address; add it to ALLOWED_TARGETS to test it',
      );
      await session.close();
    } finally {
      await strict.close();
    }
  });
});

describe('runTestCase on a session', () => {
  it('reports each step in order, pending then done with its own screenshot', async () => {
    const events: { step: number; status: string; shot?: Buffer }[] = [];
    const outcome = await runTestCase(
      pool,
      TestCaseSchema.parse({
        test_name: 'colour',
        steps: [`Navigate to ${site}/colour`, 'Click button "Turn red"', 'Verify title contains "Colour"'],
      }),
      {
        baseUrl: site,
        viewport: { width: 400, height: 300 },
        onStep: (update, shot) =>
          events.push({ step: update.step_number ?? 0, status: update.status, shot: shot?.data }),
      },
    );
    expect(outcome.status).toBe('passed');
    expect(events.map((e) => `${e.step} ${e.status}`)).toEqual([
      '1 pending',
      '1 success',
      '2 pending',
      '2 success',
      '3 pending',
      '3 success',
    ]);
    const shots = events.filter((e) => e.status === 'success').map((e) => e.shot!);
    expect(shots.every(isJpeg)).toBe(true);
    // The first step's screenshot was taken while the second step already ran: it still shows green.
    expect(isGreen(await centreColour(shots[0]))).toBe(true);
    expect(isRed(await centreColour(shots[1]))).toBe(true);
    expect(outcome.screenshots.map((s) => s.step_index)).toEqual([0, 1, 2]);
    expect(pool.stats().active).toBe(0);
  });
});

describe('capturing the whole page for a design comparison', () => {
  it('answers a PNG of the full page, cut at maxHeight, and evaluates a function in the page', async () => {
    const session = await pool.openSession({ viewport: { width: 400, height: 300 } });
    try {
      await session.navigate(`${site}/tall`);
      const full = await session.capturePage({ settleMs: 1_000 });
      expect(full.data.subarray(1, 4).toString()).toBe('PNG');
      expect({ width: full.width, height: full.height, pageHeight: full.pageHeight }).toEqual({
        width: 400,
        height: 2500,
        pageHeight: 2500,
      });
      const cut = await session.capturePage({ maxHeight: 1200, settleMs: 0 });
      expect({ width: cut.width, height: cut.height }).toEqual({ width: 400, height: 1200 });
      const viewportOnly = await session.capturePage({ fullPage: false, settleMs: 0 });
      expect({ width: viewportOnly.width, height: viewportOnly.height }).toEqual({ width: 400, height: 300 });
      const read = await session.evaluate((id: string) => {
        const el = document.getElementById(id)!;
        return { tag: el.tagName, background: getComputedStyle(el).backgroundColor };
      }, 'bottom');
      expect(read).toEqual({ tag: 'DIV', background: 'rgb(200, 0, 0)' });
    } finally {
      await session.close();
    }
  });

  it('captures the same pixels encoded for speed, scrolled or not', async () => {
    const session = await pool.openSession({ viewport: { width: 400, height: 300 } });
    try {
      await session.navigate(`${site}/tall`);
      await session.evaluate(() => window.scrollTo(0, 1400), undefined);
      // A fast capture leaves the stilling to its caller (here: the focused field's blinking caret).
      await session.evaluate(() => {
        const style = document.createElement('style');
        style.textContent = '*{caret-color:transparent!important}';
        document.head.append(style);
      }, undefined);
      const plain = await session.capturePage({ settleMs: 0 });
      const fast = await session.capturePage({ settleMs: 0, fast: true });
      expect({ width: fast.width, height: fast.height }).toEqual({
        width: plain.width,
        height: plain.height,
      });
      // Both start at the page's top whatever its scroll: blue above 1500 px, red below.
      const rows = await pool.withContext(async (context) => {
        const page = await context.newPage();
        return page.evaluate(
          async ([a, b]) => {
            const pixelsOf = async (b64: string) => {
              const img = new Image();
              img.src = `data:image/png;base64,${b64}`;
              await img.decode();
              const canvas = document.createElement('canvas');
              canvas.width = img.width;
              canvas.height = img.height;
              const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
              ctx.drawImage(img, 0, 0);
              return Array.from(ctx.getImageData(0, 0, img.width, img.height).data);
            };
            const [pa, pb] = await Promise.all([pixelsOf(a), pixelsOf(b)]);
            let differing = 0;
            for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) differing++;
            return {
              differing,
              top: pb.slice(200 * 400 * 4, 200 * 400 * 4 + 3),
              bottom: pb.slice(2000 * 400 * 4 + 800, 2000 * 400 * 4 + 803),
            };
          },
          [plain.data.toString('base64'), fast.data.toString('base64')],
        );
      });
      expect(rows).toEqual({ differing: 0, top: [0, 0, 200], bottom: [200, 0, 0] });
    } finally {
      await session.close();
    }
  });

  it("captures the page's address loaded again in another tab, and leaves the session's page as it was", async () => {
    const session = await pool.openSession({ viewport: { width: 400, height: 300 } });
    try {
      await session.navigate(`${site}/colour`);
      await session.evaluate(
        () => (document.querySelector('button') as HTMLButtonElement).click(),
        undefined,
      );
      const other = await session.captureAnotherLoad({
        settleMs: 500,
        freezeCss: 'button { visibility: hidden }',
      });
      expect({ width: other.width, height: other.height }).toEqual({ width: 400, height: 300 });
      // Another load shows the address as it loads (green), not this page's state (red since the click).
      // (Chromium decodes the PNG whatever the data URL calls it.)
      expect(isGreen(await centreColour(other.data))).toBe(true);
      expect(await session.evaluate(() => getComputedStyle(document.body).backgroundColor, undefined)).toBe(
        'rgb(220, 0, 0)',
      );
    } finally {
      await session.close();
    }
  });
});
