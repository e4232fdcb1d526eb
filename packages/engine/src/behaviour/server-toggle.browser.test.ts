/**
 * A checkbox whose change is sent with `fetch` and drawn at once is also checked after a reload: the
 * state must be kept on the server, not only drawn. In real Chromium, on a list kept per session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { exploreBehaviours } from './explore-behaviours';
import { runBehaviour } from './testing/run-behaviour';
import { html, type Served, serve, sessionOf } from './testing/serve';

/** Each browser session's list (by its cookie), as an app keeps each signed-in user's. */
const lists = new Map<string, { title: string; done: boolean }[]>();
/** The planted bug: the server answers the toggle but does not store it. */
let forgets = false;

const listOf = (sid: string) => {
  if (!lists.has(sid))
    lists.set(sid, [
      { title: 'Buy milk', done: false },
      { title: 'Walk the dog', done: false },
    ]);
  return lists.get(sid)!;
};

const page = (items: { title: string; done: boolean }[]) => `<!doctype html><html lang="en">
<head><title>Chores</title><style>.done label { text-decoration: line-through; }</style></head>
<body><main><h1>Chores</h1><ul>${items
  .map(
    (t, i) =>
      `<li class="${t.done ? 'done' : ''}"><input type="checkbox" id="c${i}" data-i="${i}"${t.done ? ' checked' : ''}><label for="c${i}">${t.title}</label></li>`,
  )
  .join('')}</ul>
<script>
  for (const box of document.querySelectorAll('input[type=checkbox]')) {
    box.addEventListener('change', () => {
      // Drawn at once; the server is told in the background.
      box.closest('li').classList.toggle('done', box.checked);
      fetch('/toggle', { method: 'POST', body: JSON.stringify({ i: Number(box.dataset.i), done: box.checked }) });
    });
  }
</script></main></body></html>`;

let pool: BrowserPool;
let app: Served;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  app = await serve((req, body, res) => {
    const items = listOf(sessionOf(req, res));
    if (req.method === 'POST' && req.url === '/toggle') {
      const { i, done } = JSON.parse(body) as { i: number; done: boolean };
      if (!forgets && items[i]) items[i].done = done;
      res.end('{}');
      return;
    }
    html(res, page(items));
  });
});

afterAll(async () => {
  await pool?.close();
  await app?.close();
});

describe('a toggle sent with fetch and drawn at once', () => {
  it('is checked after a reload too, and that check fails on a server that does not store it', async () => {
    const found = await exploreBehaviours(pool, `${app.url}/`, { timeBudgetMs: 150_000 });
    const kept = found.find(
      (b) => b.action.at(-1)?.verb === 'reload' && b.description.includes('"Buy milk"'),
    );
    expect(kept?.action).toEqual([{ verb: 'check', checked: true, region: 'Buy milk' }, { verb: 'reload' }]);
    expect(kept?.assertions).toContainEqual({ verb: 'verifyChecked', region: 'Buy milk', checked: true });
    expect(await runBehaviour(pool, kept!)).toBeNull();
    forgets = true;
    try {
      expect(await runBehaviour(pool, kept!)).toMatch(/verifyChecked/);
    } finally {
      forgets = false;
    }
  }, 200_000);
});
