/**
 * Behaviour exploration in real Chromium: the fixture to-do app yields a behaviour for each of its
 * features, nothing it does leaves the site, and a Stop ends it promptly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExplorationSummary } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { type Behaviour, exploreBehaviours } from './explore-behaviours';

let pool: BrowserPool;
let todo: FixtureApp;
let todoBehaviours: Behaviour[];

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  todo = await serveFixtureApp('todo');
});

afterAll(async () => {
  await pool?.close();
  await todo?.close();
});

const lines = (b: Behaviour) => JSON.stringify([b.setup, b.action, b.assertions]);

describe('exploreBehaviours on the shelf app (div rows, nameless controls, no list roles)', () => {
  it('finds the rows by their structure and acts on their nameless checkbox and hover-only icon button', async () => {
    const shelf = await serveFixtureApp('shelf');
    try {
      const found = await exploreBehaviours(pool, `${shelf.url}/`, { timeBudgetMs: 150_000 });
      const find = (kind: string, test: (b: Behaviour) => boolean = () => true) =>
        found.find((b) => b.kind === kind && test(b));
      expect(find('add')?.assertions).toContainEqual({ verb: 'verifyText', text: 'Buy milk', visible: true });
      // The bin has no text, no label, no title: the button of its row, shown by hovering the row. It
      // is tried on the second row, so the check also says the first one stays.
      expect(find('hoverClick')?.action).toEqual([
        { verb: 'hover', target: 'Walk the dog' },
        { verb: 'click', role: 'button', region: 'Walk the dog' },
      ]);
      expect(find('hoverClick')?.assertions).toEqual(
        expect.arrayContaining([
          { verb: 'verifyText', text: 'Walk the dog', visible: false },
          { verb: 'verifyText', text: 'Buy milk', visible: true },
        ]),
      );
      // The row's unlabelled checkbox, and the bulk checkbox labelled by a separate <label for>.
      expect(find('check', (b) => b.control.item === 'Walk the dog')?.action).toEqual([
        { verb: 'check', checked: true, region: 'Walk the dog' },
      ]);
      expect(find('check', (b) => b.control.name === 'Mark all as read')).toBeDefined();
      // A control that exists only once a book is finished, found in that state (a finished row's
      // class differs from its neighbour's, and it is still a row).
      const archive = find('click', (b) => b.control.name === 'Archive finished');
      expect(archive?.setupActions.map((a) => a.kind)).toEqual(['add', 'add', 'check']);
      // The first book is the finished one, the newest still to read: archiving keeps it.
      expect(archive?.assertions).toEqual(
        expect.arrayContaining([
          { verb: 'verifyText', text: 'Buy milk', visible: false },
          { verb: 'verifyText', text: 'Walk the dog', visible: true },
        ]),
      );
      expect(find('reload')).toBeDefined();
    } finally {
      await shelf.close();
    }
  }, 200_000);
});

describe('exploreBehaviours on the to-do app', () => {
  it('finds adding, completing, deleting, editing, each filter, clear completed and the counter', async () => {
    const progress: string[] = [];
    // A budget no exploration of this small app reaches on any machine: what is found is the subject
    // here, not how much fits in the default 30 s, which a busy machine cuts short.
    let summary: ExplorationSummary | undefined;
    todoBehaviours = await exploreBehaviours(pool, `${todo.url}/`, {
      timeBudgetMs: 150_000,
      onProgress: (m) => progress.push(m),
      onSummary: (s) => (summary = s),
    });
    // Everything found was tried, within the action budget, and the summary says so.
    expect(summary).toMatchObject({ ended: 'complete', skipped: [], behaviours: todoBehaviours.length });
    expect(summary!.actions).toBeLessThanOrEqual(40);
    expect(summary!.states).toBeGreaterThanOrEqual(3);
    expect(summary!.latencyMs).toBeGreaterThan(0);
    expect(summary!.timeLimitMs).toBeGreaterThanOrEqual(150_000);
    expect(progress).toContain('Trying: type into "New todo" and press Enter');
    const find = (kind: string, test: (b: Behaviour) => boolean = () => true) =>
      todoBehaviours.find((b) => b.kind === kind && test(b));
    const adding = find('add');
    expect(adding?.assertions).toContainEqual({ verb: 'verifyText', text: 'Buy milk', visible: true });
    // The counter.
    expect(todoBehaviours.some((b) => /items? left/.test(lines(b)))).toBe(true);
    const completing = find('check', (b) => b.control.item !== null);
    expect(completing?.assertions).toContainEqual(
      expect.objectContaining({ verb: 'verifyChecked', checked: true }),
    );
    const deleting = find('hoverClick');
    expect(deleting?.action).toEqual([
      { verb: 'hover', target: 'Walk the dog' },
      { verb: 'click', target: 'Delete Walk the dog', role: 'button', region: 'Walk the dog' },
    ]);
    expect(deleting?.assertions).toEqual(
      expect.arrayContaining([
        { verb: 'verifyText', text: 'Walk the dog', visible: false },
        { verb: 'verifyText', text: 'Buy milk', visible: true },
      ]),
    );
    const editing = find('edit');
    expect(editing?.action.map((s) => s.verb)).toEqual(['doubleClick', 'fillFocused', 'press']);
    for (const filter of ['Active', 'Completed', 'All'])
      expect(
        find('link', (b) => b.control.name === filter),
        filter,
      ).toBeDefined();
    expect(find('click', (b) => b.control.name === 'Clear completed')).toBeDefined();
    // Every behaviour starts where it was found and stays on the app.
    for (const b of todoBehaviours) expect(b.url).toBe(`${todo.url}/`);
    expect(pool.stats().active, 'sessions left open').toBe(0);
  }, 300_000);

  it('names what it left out when the action budget runs out, and with a focus tries what its words name first', async () => {
    const clearing = (found: Behaviour[]) => found.some((b) => b.control.name === 'Clear completed');
    let summary: ExplorationSummary | undefined;
    const budget = { maxActions: 6, timeBudgetMs: 150_000 };
    const plain = await exploreBehaviours(pool, `${todo.url}/`, {
      ...budget,
      onSummary: (s) => (summary = s),
    });
    expect(summary).toMatchObject({ actions: 6, maxActions: 6, ended: 'actions' });
    expect(summary!.skipped).toEqual(
      expect.arrayContaining(['a reload', 'click "Clear completed" (an item completed)']),
    );
    expect(clearing(plain), 'found without a focus, so the focus would prove nothing').toBe(false);
    const focused = await exploreBehaviours(pool, `${todo.url}/`, {
      ...budget,
      focus: ['clear', 'completed'],
    });
    expect(clearing(focused)).toBe(true);
    expect(pool.stats().active).toBe(0);
  });

  it('stops promptly when told to, leaving no session open', async () => {
    const controller = new AbortController();
    let stoppedAt = 0;
    const found = exploreBehaviours(pool, `${todo.url}/`, {
      signal: controller.signal,
      onProgress: (m) => {
        if (stoppedAt || !m.startsWith('Checking')) return;
        stoppedAt = performance.now();
        controller.abort();
      },
    });
    await found;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(performance.now() - stoppedAt, 'ms from Stop to the end').toBeLessThan(1_500);
    expect(pool.stats().active).toBe(0);
  });
});

describe('exploreBehaviours never leaves the site', () => {
  let site: Server;
  let elsewhere: Server;
  const visits: string[] = [];
  let siteUrl: string;

  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      visits.push(req.url ?? '');
      res.end('<!doctype html><title>Elsewhere</title><p>Elsewhere</p>');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
    const page = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main>
      <h1>Shop</h1>
      <p id="msg"></p>
      <button onclick="document.getElementById('msg').textContent='Saved'">Save</button>
      <a href="${other}/away">Partner site</a>
      <a href="/" target="_blank">New window</a>
      <a href="mailto:shop@example.com">Mail us</a>
      <a href="/file.pdf" download>Download the catalogue</a>
      <button onclick="location.href='${other}/logout'">Log out</button>
      <form action="${other}/collect" method="post"><label>Email <input name="email" type="email"></label><button>Join</button></form>
      <form action="/login" method="post"><label>Password <input name="p" type="password"></label><button>Sign in</button></form>
      </main></body></html>`;
    site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(page);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    site?.close();
    elsewhere?.close();
  });

  it('acts only on what stays: no other origin, new window, mail link, download, log out or foreign form', async () => {
    const progress: string[] = [];
    const behaviours = await exploreBehaviours(pool, siteUrl, { onProgress: (m) => progress.push(m) });
    expect(behaviours.map((b) => b.description)).toEqual(['click "Save"']);
    expect(behaviours[0].assertions).toContainEqual({ verb: 'verifyText', text: 'Saved', visible: true });
    expect(progress.filter((m) => m.startsWith('Trying')).join('\n')).not.toMatch(
      /Partner|New window|Mail|Download|Log out|Join|Sign in/,
    );
    expect(visits).toEqual([]);
  }, 60_000);
});

describe('exploreBehaviours on a list of cards added through a form', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const page = `<!doctype html><html lang="en"><head><title>Notes</title></head><body><main>
      <h1>Notes</h1>
      <form id="f"><label for="t">Note</label><input id="t" required><button>Add note</button></form>
      <p id="count">0 notes</p><div id="notes"></div>
      <script>
        const notes = [];
        const render = () => {
          const box = document.getElementById('notes');
          box.innerHTML = '';
          notes.forEach((n, i) => {
            const card = document.createElement('div');
            card.className = 'note-card';
            const t = document.createElement('span');
            t.textContent = n;
            const b = document.createElement('button');
            b.textContent = 'Remove';
            b.setAttribute('aria-label', 'Remove ' + n);
            b.onclick = () => { notes.splice(i, 1); render(); };
            card.append(t, b);
            box.append(card);
          });
          document.getElementById('count').textContent = notes.length + (notes.length === 1 ? ' note' : ' notes');
        };
        document.getElementById('f').onsubmit = (e) => {
          e.preventDefault();
          const v = document.getElementById('t').value.trim();
          if (v) notes.push(v);
          document.getElementById('t').value = '';
          render();
        };
        render();
      </script></main></body></html>`;
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(page);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    server?.close();
  });

  it('adds through the form, twice, and removes the second card leaving the first', async () => {
    const behaviours = await exploreBehaviours(pool, url);
    const adds = behaviours.filter((b) => b.kind === 'submit');
    expect(adds.map((b) => b.setupActions.length)).toEqual([0, 1]);
    expect(adds[1].assertions).toContainEqual({ verb: 'verifyText', text: '2 notes', visible: true });
    const removing = behaviours.find((b) => b.control.name === 'Remove Walk the dog');
    expect(removing?.assertions).toEqual(
      expect.arrayContaining([
        { verb: 'verifyText', text: 'Walk the dog', visible: false },
        { verb: 'verifyText', text: 'Buy milk', visible: true },
        { verb: 'verifyText', text: '1 note', visible: true },
      ]),
    );
  }, 60_000);
});
