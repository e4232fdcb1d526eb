import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page server a browser test starts on 127.0.0.1 (a port of its own), and how to stop it. */
export interface Served {
  url: string;
  close: () => Promise<void>;
}

/** Serves `handle` on 127.0.0.1; the request's body is read first (a form's or a fetch's). */
export async function serve(
  handle: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<Served> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Answers an HTML page. */
export function html(res: ServerResponse, page: string): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(page);
}

/** The session a request belongs to (its cookie), and a new one set on the answer when it has none. */
export function sessionOf(req: IncomingMessage, res: ServerResponse): string {
  const found = /(?:^|;\s*)sid=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  if (found) return found;
  const sid = Math.random().toString(36).slice(2);
  res.setHeader('set-cookie', `sid=${sid}; Path=/; HttpOnly`);
  return sid;
}
