import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStep } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import type { BrowserSession } from './browser-session';
import { clipboardAction } from './clipboard';
import { TargetPolicy } from './target-policy';

/**
 * One Chromium serves every user, and its clipboard is one for all of them: user A copies in their
 * live browser, user B pastes in theirs. Copy, cut and paste chords must use each session's own
 * clipboard, by takeover keys and by steps alike, and a page must not read the browser's.
 */

const PAGE = `<title>Fields</title>
  <label>First <input id="first"></label>
  <label>Second <input id="second"></label>
  <label>Notes <textarea id="notes"></textarea></label>
  <p id="plain">Plain words on the page</p>`;

let server: Server;
let site: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 3 });
afterAll(() => pool.close());

const fieldValue = (session: BrowserSession, id: string) =>
  session.evaluate((field) => (document.getElementById(field) as HTMLInputElement).value, id);
const press = (session: BrowserSession, key: string) => session.key({ type: 'press', key });
const step = (session: BrowserSession, line: string) => session.perform(parseStep(line));

describe('the clipboard of a session', () => {
  it("is its own: B's paste gets nothing of what A copied, A's paste gets it back", async () => {
    const a = await pool.openSession();
    const b = await pool.openSession();
    try {
      await a.navigate(`${site}/`);
      await b.navigate(`${site}/`);
      // A: takeover keys, as the live browser sends them.
      await step(a, 'Click "First"');
      await a.type('SECRET-A-123');
      await press(a, 'Control+A');
      await press(a, 'Control+C');
      // Also in the browser's own clipboard, the way a page or a stray chord could put it there.
      await pool.withContext(async (context) => {
        const page = await context.newPage();
        await page.goto(`${site}/`);
        await page.getByLabel('First').fill('SECRET-BROWSER-456');
        await page.getByLabel('First').press('Control+A');
        await page.getByLabel('First').press('Control+C');
      });

      // B pastes every way there is: nothing of A's, nothing of the browser's clipboard.
      await step(b, 'Click "First"');
      await press(b, 'Control+V');
      await press(b, 'Shift+Insert');
      await press(b, 'Control+Shift+V');
      await b.key({ type: 'down', key: 'Control' });
      await b.key({ type: 'press', key: 'v' });
      await b.key({ type: 'up', key: 'Control' });
      await step(b, 'Press Control+V in "Second"');
      await step(b, 'Click "Notes"');
      await step(b, 'Press Meta+V');
      expect([
        await fieldValue(b, 'first'),
        await fieldValue(b, 'second'),
        await fieldValue(b, 'notes'),
      ]).toEqual(['', '', '']);

      // Within A, copy then paste works, by keys and by steps (a copy with nothing selected keeps
      // what was copied, as a browser does); cut takes the text out of its field.
      await step(a, 'Click "Notes"');
      await press(a, 'Control+C');
      await step(a, 'Click "Second"');
      await press(a, 'Control+V');
      expect(await fieldValue(a, 'second')).toBe('SECRET-A-123');
      await step(a, 'Press Control+V in "Notes"');
      expect(await fieldValue(a, 'notes')).toBe('SECRET-A-123');
      await step(a, 'Fill "Second" with "moved text"');
      await step(a, 'Press Control+A in "Second"');
      await step(a, 'Press Control+X in "Second"');
      expect(await fieldValue(a, 'second')).toBe('');
      await step(a, 'Clear "First"');
      await step(a, 'Press Shift+Insert in "First"');
      expect(await fieldValue(a, 'first')).toBe('moved text');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("copies the page's selection, and the page's own copy and paste handlers still run", async () => {
    const a = await pool.openSession();
    try {
      await a.navigate(`${site}/`);
      await a.evaluate(() => {
        const range = document.createRange();
        range.selectNodeContents(document.getElementById('plain') as HTMLElement);
        document.getSelection()?.addRange(range);
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        document.addEventListener('copy', () => seen.push('copy'));
        document.addEventListener('paste', (e) =>
          seen.push(`paste ${e.clipboardData?.getData('text/plain')}`),
        );
      }, null);
      await press(a, 'Control+C');
      await step(a, 'Click "Notes"');
      await press(a, 'Control+V');
      expect(await fieldValue(a, 'notes')).toBe('Plain words on the page');
      expect(await a.evaluate(() => (window as unknown as { seen: string[] }).seen, null)).toEqual([
        'copy',
        'paste Plain words on the page',
      ]);
    } finally {
      await a.close();
    }
  });

  it("is not another user's selection: a middle click pastes nothing another session selected", async () => {
    const a = await pool.openSession();
    const b = await pool.openSession();
    try {
      await a.navigate(`${site}/`);
      await b.navigate(`${site}/`);
      await step(a, 'Fill "First" with "SELECTED-A-789"');
      await step(a, 'Press Control+A in "First"');
      const box = await b.evaluate(() => {
        const r = (document.getElementById('first') as HTMLElement).getBoundingClientRect();
        return { x: r.x + 5, y: r.y + r.height / 2 };
      }, null);
      await b.pointer({ type: 'click', button: 'middle', ...box });
      expect(await fieldValue(b, 'first')).toBe('');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("cannot be read by a page: clipboard permission denied, execCommand('paste') off", async () => {
    const a = await pool.openSession();
    try {
      await a.navigate(`${site}/`);
      await step(a, 'Click "First"');
      const read = await a.evaluate(
        () =>
          navigator.clipboard.readText().then(
            (text) => `read ${text}`,
            (error: Error) => `refused ${error.name}`,
          ),
        null,
      );
      expect(read).toBe('refused NotAllowedError');
      expect(await a.evaluate(() => document.execCommand('paste'), null)).toBe(false);
    } finally {
      await a.close();
    }
  });

  it('refuses to type text while Control is held down (each character would be a chord)', async () => {
    const a = await pool.openSession();
    try {
      await a.navigate(`${site}/`);
      await step(a, 'Click "First"');
      await a.key({ type: 'down', key: 'Control' });
      await expect(a.type('v')).rejects.toThrow(/Control or Meta is held down/);
      await a.key({ type: 'up', key: 'Control' });
      await a.type('v');
      expect(await fieldValue(a, 'first')).toBe('v');
    } finally {
      await a.close();
    }
  });
});

describe('clipboardAction', () => {
  it('knows the copy, cut and paste chords, with modifiers in the chord or held down', () => {
    const held = new Set(['Control']);
    expect(
      [
        'Control+C',
        'Control+c',
        'Meta+KeyC',
        'ControlOrMeta+x',
        'Control+Shift+V',
        'Control+Insert',
        'Shift+Insert',
        'Shift+Delete',
        'Control+A',
        'v',
        'Delete',
        'Insert',
        'Enter',
      ].map((key) => clipboardAction(key)),
    ).toEqual(['copy', 'copy', 'copy', 'cut', 'paste', 'copy', 'paste', 'cut', null, null, null, null, null]);
    expect(clipboardAction('v', held)).toBe('paste');
    expect(clipboardAction('Insert', new Set(['Shift']))).toBe('paste');
  });
});
