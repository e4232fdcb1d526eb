/**
 * On an app that keeps one list on the server for everyone, every session of an exploration finds
 * the items the earlier ones made (`Buy milk s73fgm`): no behaviour's step may name them, since on
 * a fresh app, where each run of the suite starts, they never exist.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../browser-pool';
import { TargetPolicy } from '../../target-policy';
import { exploreBehaviours } from '../explore-behaviours';

/** A token shaped like a `{{RUN_ID}}` value, as a word of its own. */
const RUN_ID_SHAPED = /(?<![a-z0-9])(?=[a-z2-9]*[a-z])(?=[a-z2-9]*\d)[a-z2-9]{6}(?![a-z0-9])/g;

let pool: BrowserPool;
let server: Server;
let url: string;
/** The list every visitor sees, on the server. */
const tasks: { id: number; title: string; done: boolean }[] = [];

const html = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
/** The start page adds and lists; /all lists only (a second page explored after the first). */
const page = (all: boolean) => `<!doctype html><html lang="en"><head><title>Tasks</title></head><body><main>
  <h1>${all ? 'All tasks' : 'Tasks'}</h1>
  ${all ? '<a href="/">Back</a>' : '<form method="post" action="/add"><label>New task <input name="title" required></label><button>Add</button></form>'}
  <p>${tasks.filter((t) => !t.done).length} open</p>
  <ul>${tasks
    .map(
      (t) => `<li class="${t.done ? 'done' : ''}"><span>${html(t.title)}</span>
      <form method="post" action="/toggle"><input type="hidden" name="id" value="${t.id}"><button>${t.done ? 'Reopen' : 'Mark done'}</button></form>
      <form method="post" action="/delete"><input type="hidden" name="id" value="${t.id}"><button>Delete</button></form></li>`,
    )
    .join('')}</ul>
  </main></body></html>`;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  let next = 1;
  tasks.push({ id: next++, title: 'Call the bank', done: false });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const id = Number(form.get('id'));
      if (req.method === 'POST' && req.url === '/add' && form.get('title'))
        tasks.push({ id: next++, title: form.get('title') ?? '', done: false });
      const task = tasks.find((t) => t.id === id);
      if (req.method === 'POST' && req.url === '/toggle' && task) task.done = !task.done;
      if (req.method === 'POST' && req.url === '/delete' && task) tasks.splice(tasks.indexOf(task), 1);
      if (req.method === 'POST') {
        res.writeHead(303, { location: req.headers.referer ?? '/' }).end();
        return;
      }
      res.setHeader('content-type', 'text/html');
      res.end(page(req.url === '/all'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await pool?.close();
  server?.close();
});

describe('exploring an app whose data every session shares', () => {
  it("names no item another exploration session made: only the case's own, as {{RUN_ID}}", async () => {
    // The second page is reached once the first one's sessions have left their items there.
    const found = await exploreBehaviours(pool, url, {
      sharedState: true,
      pages: [`${url}all`],
      timeBudgetMs: 200_000,
    });
    // The trap was there: the sessions' items, each with an id of its own, stayed on the server.
    const ids = new Set(tasks.flatMap((t) => t.title.match(RUN_ID_SHAPED) ?? []));
    expect(ids.size).toBeGreaterThanOrEqual(3);
    // Behaviours about the case's own items were still found, named by the placeholder.
    const onOwnItem = found.filter((b) => b.control.item?.includes('{{RUN_ID}}'));
    expect(onOwnItem.length).toBeGreaterThan(0);
    const named = found.flatMap((b) =>
      [...JSON.stringify([b.setup, b.action, b.assertions, b.control]).matchAll(RUN_ID_SHAPED)].map(
        (m) => `${b.description}: ${m[0]}`,
      ),
    );
    expect(named).toEqual([]);
  }, 300_000);
});
