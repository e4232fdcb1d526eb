import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExpiringAppItem {
  id: number;
  title: string;
  done: boolean;
}

export interface ExpiringApp {
  url: string;
  /** The one account: sign in at `/login` with these. */
  account: { email: string; password: string };
  /**
   * The next `times` requests whose `METHOD /path` starts with `request` (e.g. `POST /items`) find
   * their session expired, as if its time had run out just before they reached the server.
   */
  expireBefore(request: string, times?: number): void;
  /** The items as the server keeps them. */
  items(): ExpiringAppItem[];
  /** Successful sign-ins so far. */
  signIns(): number;
  /** Back to the seeded items, no sessions, no expiry armed. */
  reset(): void;
  close(): Promise<void>;
}

export interface ExpiringAppOptions {
  /** How long a session lives after its sign-in, in ms: a number, or [min, max] drawn per session. Never by default. */
  lifetimeMs?: number | [number, number];
}

const SEEDED = ['Walk the dog', 'Water the plants'];

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const LOGIN = page(
  'Sign in',
  '<h1>Sign in</h1><form method="post" action="/login"><label>Email <input name="email" type="email"></label>' +
    '<label>Password <input name="password" type="password"></label><button>Sign in</button></form>',
);

// The Done box is saved with fetch and drawn at once; a refused save is not shown (as many apps do):
// only a reload tells whether it was kept.
const SCRIPT = `<script>
for (const box of document.querySelectorAll('input[data-id]')) {
  box.addEventListener('change', () => {
    fetch('/api/items/' + box.dataset.id + '/done', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ done: box.checked }),
    }).catch(() => {});
  });
}
</script>`;

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/**
 * A small server-rendered app behind a credentials sign-in, for tests and measurements of expired
 * sessions: server-side sessions in a cookie that expire after a lifetime, or on a signal from the
 * test just before a given request. Signed out, a page or a form post is redirected to `/login` and
 * the JSON API answers 401. `/items` lists items, each with a Done box saved by `fetch`, and a form
 * (Title, Add) posted to the server (POST → 303 → GET); "Log out" ends the session.
 */
export async function startExpiringApp(options: ExpiringAppOptions = {}): Promise<ExpiringApp> {
  const account = { email: 'ada@example.test', password: 'correct-horse-7' };
  const sessions = new Map<string, number>();
  const armed: { request: string; times: number }[] = [];
  let items: ExpiringAppItem[] = [];
  let nextId = 1;
  let signIns = 0;
  const seed = () => {
    items = SEEDED.map((title, i) => ({ id: i + 1, title, done: false }));
    nextId = SEEDED.length + 1;
  };
  seed();
  const lifetime = () => {
    const { lifetimeMs } = options;
    if (lifetimeMs === undefined) return Number.POSITIVE_INFINITY;
    if (typeof lifetimeMs === 'number') return lifetimeMs;
    return lifetimeMs[0] + Math.random() * (lifetimeMs[1] - lifetimeMs[0]);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const request = `${req.method} ${url.pathname}`;
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const trap = armed.find((a) => a.times > 0 && request.startsWith(a.request));
    if (sid && trap && sessions.has(sid)) {
      trap.times--;
      sessions.delete(sid);
    }
    const expires = sid ? sessions.get(sid) : undefined;
    if (sid && expires !== undefined && expires <= Date.now()) sessions.delete(sid);
    const signedIn = sid !== undefined && sessions.has(sid);
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
    };
    const redirect = (to: string, headers: Record<string, string> = {}) => {
      res.writeHead(303, { location: to, 'cache-control': 'no-store', ...headers });
      res.end();
    };
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(value));
    };

    if (url.pathname === '/login' && req.method === 'GET') return html(200, LOGIN);
    if (url.pathname === '/login' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      if (form.get('email') !== account.email || form.get('password') !== account.password)
        return html(401, LOGIN.replace('<form', '<p role="alert">Invalid email or password</p><form'));
      const id = randomBytes(12).toString('hex');
      sessions.set(id, Date.now() + lifetime());
      signIns++;
      return redirect('/items', { 'set-cookie': `sid=${id}; HttpOnly; SameSite=Lax; Path=/` });
    }
    const api = url.pathname.startsWith('/api/');
    if (!signedIn) {
      await body(req);
      return api ? json(401, { error: 'Not signed in' }) : redirect('/login');
    }
    if (url.pathname === '/logout' && req.method === 'POST') {
      if (sid) sessions.delete(sid);
      return redirect('/login', { 'set-cookie': 'sid=; Max-Age=0; Path=/' });
    }
    const done = /^\/api\/items\/(\d+)\/done$/.exec(url.pathname);
    if (done && req.method === 'POST') {
      const item = items.find((i) => i.id === Number(done[1]));
      if (!item) return json(404, { error: 'No such item' });
      item.done = (JSON.parse((await body(req)) || '{}') as { done?: boolean }).done === true;
      return json(200, item);
    }
    if (url.pathname === '/items' && req.method === 'POST') {
      const title = new URLSearchParams(await body(req)).get('title')?.trim() ?? '';
      if (title) items.push({ id: nextId++, title, done: false });
      return redirect('/items');
    }
    if (url.pathname === '/items' && req.method === 'GET') {
      const rows = items
        .map(
          (i) =>
            `<li><input type="checkbox" aria-label="Done" data-id="${i.id}"${i.done ? ' checked' : ''}> <span>${escapeHtml(i.title)}</span></li>`,
        )
        .join('');
      return html(
        200,
        page(
          'Items',
          `<form method="post" action="/logout"><button>Log out</button></form><h1>Items</h1><ul>${rows}</ul><form method="post" action="/items"><label>Title <input name="title"></label> <button>Add</button></form>${SCRIPT}`,
        ),
      );
    }
    if (url.pathname === '/') return redirect('/items');
    return html(404, page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    account,
    expireBefore: (request, times = 1) => {
      armed.push({ request, times });
    },
    items: () => items.map((i) => ({ ...i })),
    signIns: () => signIns,
    reset: () => {
      seed();
      sessions.clear();
      armed.length = 0;
      signIns = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
