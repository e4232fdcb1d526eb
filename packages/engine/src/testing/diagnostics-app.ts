import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small app that fails in the ways a case's diagnostics tell apart (recording/, failure/), for tests:
 * - `/orders`: "Place order" POSTs `/api/orders`, which answers 500 (the page logs a console error and
 *   never shows "Order confirmed"); "Break" throws an uncaught TypeError ("cart is undefined").
 * - `/late`: a "Late button" that appears `lateMs` after the page loads.
 * - `/login`: a sign-in form (Username, Password, Code) whose "Check" button sends the three as JSON to
 *   `/api/login` and whose "Sign in" posts them form-encoded to `/login`, which sets a cookie and sends
 *   the browser to `/welcome?user=…`, a page naming the user.
 */
export interface DiagnosticsApp {
  url: string;
  /** Bodies the app received, as sent (`METHOD /path body`). */
  received: string[];
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="icon" href="data:,"></head><body>${body}</body></html>`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const ORDERS = page(
  'Orders',
  `<h1>Orders</h1><button id="place">Place order</button><button id="break">Break</button><p id="out"></p>
<script>
console.info('orders ready');
document.getElementById('place').addEventListener('click', async () => {
  const answer = await fetch('/api/orders', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item: 1 }),
  });
  if (answer.ok) document.getElementById('out').textContent = 'Order confirmed';
  else console.error('order failed: ' + answer.status);
});
document.getElementById('break').addEventListener('click', () => {
  const cart = undefined;
  return cart.items;
});
</script>`,
);

const late = (ms: number) =>
  page(
    'Late',
    `<h1>Late</h1><script>setTimeout(() => {
  const button = document.createElement('button');
  button.textContent = 'Late button';
  document.body.append(button);
}, ${ms});</script>`,
  );

const LOGIN = page(
  'Sign in',
  `<h1>Sign in</h1><form method="post" action="/login">
<label>Username <input name="username" type="text"></label>
<label>Password <input name="password" type="password"></label>
<label>Code <input name="code" type="text" inputmode="numeric"></label>
<button type="button" id="check">Check</button><button>Sign in</button></form><p id="checked"></p>
<script>
document.getElementById('check').addEventListener('click', async () => {
  const form = document.querySelector('form');
  const body = JSON.stringify(Object.fromEntries(new FormData(form)));
  const answer = await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  document.getElementById('checked').textContent = answer.ok ? 'Checked' : 'Refused';
});
</script>`,
);

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startDiagnosticsApp(options: { lateMs?: number } = {}): Promise<DiagnosticsApp> {
  const received: string[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    const body = await bodyOf(req);
    if (req.method === 'POST') received.push(`POST ${url.pathname} ${body}`);
    const html = (status: number, text: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(text);
    if (req.method === 'POST' && url.pathname === '/api/orders') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"database is down"}');
    } else if (req.method === 'POST' && url.pathname === '/api/login') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-auth-token': 'tok-a1b2c3d4e5' })
        .end('{"ok":true}');
    } else if (req.method === 'POST' && url.pathname === '/login') {
      const user = new URLSearchParams(body).get('username') ?? '';
      res
        .writeHead(303, {
          location: `/welcome?user=${encodeURIComponent(user)}`,
          'set-cookie': 'sid=s3ss10n-cookie-value; HttpOnly; Path=/',
        })
        .end();
    } else if (url.pathname === '/orders') html(200, ORDERS);
    else if (url.pathname === '/late') html(200, late(options.lateMs ?? 1_400));
    else if (url.pathname === '/login') html(200, LOGIN);
    else if (url.pathname === '/welcome') {
      const user = url.searchParams.get('user') ?? '';
      html(200, page('Welcome', `<h1>Welcome</h1><p>Signed in as ${escapeHtml(user)}</p>`));
    } else if (url.pathname === '/') html(200, page('Home', '<h1>Home</h1><p>All good</p>'));
    else html(404, page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
