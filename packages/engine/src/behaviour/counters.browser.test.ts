/**
 * A counter the page shows is checked against the rows it counts, on data kept on the server for one
 * account, only when each session has an account of its own (`ownData`); in real Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { type Behaviour, exploreBehaviours } from './explore-behaviours';
import { runBehaviour } from './testing/run-behaviour';
import { html, type Served, serve } from './testing/serve';

/** The tickets of the one account every session signs in as (kept across sessions, as a server does). */
const tickets: { title: string; open: boolean }[] = [{ title: 'Printer jam', open: true }];
/** The planted bug: the counter skips the first ticket. */
let skipFirst = false;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const page = () => {
  const open = tickets.filter((t, i) => t.open && !(skipFirst && i === 0)).length;
  const rows = tickets
    .map((t) => `<tr><td>${escapeHtml(t.title)}</td><td>${t.open ? 'Open' : 'Closed'}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><title>Tickets</title></head><body><main>
    <h1>Tickets</h1>
    <p>${open} open ${open === 1 ? 'ticket' : 'tickets'}</p>
    <form method="post" action="/add"><label for="t">Title</label><input id="t" name="title" required>
    <button>Add ticket</button></form>
    <table><thead><tr><th>Title</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>
    </main></body></html>`;
};

let pool: BrowserPool;
let app: Served;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  app = await serve((req, body, res) => {
    if (req.method === 'POST' && req.url === '/add') {
      const title = new URLSearchParams(body).get('title')?.trim();
      if (title) tickets.push({ title, open: true });
      res.writeHead(303, { location: '/' }).end();
      return;
    }
    html(res, page());
  });
});

afterAll(async () => {
  await pool?.close();
  await app?.close();
});

const counts = (b: Behaviour) => b.assertions.some((s) => s.verb === 'verifyCountOf');

describe('a counter checked against the rows it counts, on shared data', () => {
  it('is checked with an account per session, and the check catches a counter that skips the first row', async () => {
    const found = await exploreBehaviours(pool, `${app.url}/`, {
      sharedState: true,
      ownData: true,
      timeBudgetMs: 150_000,
    });
    const adding = found.find((b) => b.kind === 'submit' && counts(b));
    expect(adding?.assertions).toContainEqual({ verb: 'verifyCountOf', text: 'open tickets', cell: 'Open' });
    // Never the absolute number: earlier sessions left tickets of their own.
    expect(JSON.stringify(found.map((b) => b.assertions))).not.toMatch(/"\d+ open tickets?"/);
    expect(await runBehaviour(pool, adding!)).toBeNull();
    skipFirst = true;
    try {
      expect(await runBehaviour(pool, adding!)).toMatch(/open ticket.*count the rows/);
    } finally {
      skipFirst = false;
    }
  }, 200_000);

  it('is not proposed when every session signs in as the same account', async () => {
    const found = await exploreBehaviours(pool, `${app.url}/`, { sharedState: true, timeBudgetMs: 150_000 });
    expect(found.some((b) => b.kind === 'submit')).toBe(true);
    expect(found.filter(counts)).toEqual([]);
  }, 200_000);
});
