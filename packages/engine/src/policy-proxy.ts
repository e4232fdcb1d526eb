import { timingSafeEqual } from 'node:crypto';
import {
  Agent,
  type ClientRequest,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TargetPolicy } from './target-policy';

/**
 * A forward proxy every byte of the browser's traffic goes through, so the target policy is applied
 * after DNS resolution to navigations, redirects, subresources, XHR and WebSockets alike, and the
 * connection goes to the very address that was checked (no DNS rebinding between check and use).
 */
export interface PolicyProxy {
  /** `http://<public host>:PORT`, for Chromium's `--proxy-server` or a context's `proxy.server`. */
  url: string;
  /** What a client must present (HTTP Basic, `Proxy-Authorization`), when the proxy asks for any. */
  credentials?: ProxyCredentials;
  /** The most recent refusal for a host, to explain a failed navigation. */
  refusalFor(host: string): string | undefined;
  close(): Promise<void>;
}

export interface ProxyCredentials {
  username: string;
  password: string;
}

export interface PolicyProxyOptions {
  /** Where the proxy listens. @default '127.0.0.1' */
  host?: string;
  /** The host a browser dials to reach it (a remote browser's view of this machine). @default host */
  publicHost?: string;
  /**
   * Required of every request and tunnel (407 without them). A proxy a remote browser can reach is
   * reachable by others on that network too; without credentials it would be an open relay to
   * whatever the policy allows.
   */
  credentials?: ProxyCredentials;
}

export const BLOCKED_HEADER = 'x-argus-blocked';
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * Errors of a request sent on a kept-alive connection the server had just closed: the race every
 * HTTP client with a connection pool meets (Node closes an idle connection after 5 s, and on a busy
 * machine its FIN can arrive after the pool handed the socket out). The server never read the
 * request, so browsers send it again on a new connection, whatever its method; the proxy must do
 * the same, or it fails a resource the browser alone would have loaded (a red run on a good app).
 */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** Tries on kept-alive connections before a new one; a pool can hold several stale sockets. */
const MAX_STALE_RETRIES = 3;
/** A request body beyond this is streamed without a copy, and so is never sent again. */
const MAX_REPLAY_BYTES = 8 * 1024 * 1024;

interface Upstream {
  address: string;
  port: number;
  url: URL;
  agent: Agent;
}

/**
 * Sends one proxied request upstream and pipes the answer back. The body is kept (up to
 * MAX_REPLAY_BYTES) so a request lost to a stale kept-alive connection can be sent again.
 */
function forward(req: IncomingMessage, res: ServerResponse, upstream: Upstream): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const body: Buffer[] = [];
  let bodyBytes = 0;
  let replayable = true;
  let ended = false;
  let current: ClientRequest;

  const send = (staleRetries: number): ClientRequest => {
    const request = httpRequest(
      {
        host: upstream.address,
        port: upstream.port,
        method: req.method,
        path: `${upstream.url.pathname}${upstream.url.search}`,
        headers,
        agent: upstream.agent,
        setHost: false,
      },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          // A site may not pose as the proxy: its own x-argus-blocked would fail the step with its text.
          if (value !== undefined && !HOP_BY_HOP.has(name) && name !== BLOCKED_HEADER) out[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.pipe(res);
      },
    );
    current = request;
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (current !== request) return;
      const stale = request.reusedSocket && STALE_CONNECTION.has(error.code ?? '') && !res.headersSent;
      if (stale && replayable && staleRetries < MAX_STALE_RETRIES) {
        const again = send(staleRetries + 1);
        for (const chunk of body) again.write(chunk);
        if (ended) again.end();
        else req.resume(); // it may wait for a 'drain' of the request just dropped
        return;
      }
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Argus proxy could not reach ${upstream.url.host}: ${error.message}`);
    });
    return request;
  };

  send(0);
  req.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (replayable && bodyBytes > MAX_REPLAY_BYTES) {
      replayable = false;
      body.length = 0;
    }
    if (replayable) body.push(chunk);
    if (!current.write(chunk)) {
      req.pause();
      current.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    ended = true;
    current.end();
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startPolicyProxy(
  policy: TargetPolicy,
  options: PolicyProxyOptions = {},
): Promise<PolicyProxy> {
  const host = options.host ?? '127.0.0.1';
  const expected = options.credentials
    ? Buffer.from(`${options.credentials.username}:${options.credentials.password}`)
    : null;
  /** Whether the request carries the proxy's credentials (always true for a proxy without any). */
  const authorised = (req: IncomingMessage): boolean => {
    if (!expected) return true;
    const [scheme, value] = (req.headers['proxy-authorization'] ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const challenge = 'Basic realm="argus-policy-proxy"';
  const refusals = new Map<string, string>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const tunnels = new Set<Socket | Duplex>();

  const refuse = (host: string, reason: string) => {
    const text = `Blocked by the target policy: ${reason}`;
    refusals.set(host, text);
    if (refusals.size > 500) refusals.delete(refusals.keys().next().value as string);
    return text;
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorised(req)) {
      res
        .writeHead(407, { 'proxy-authenticate': challenge, 'content-type': 'text/plain' })
        .end('Proxy authentication required');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a proxy: absolute URLs only');
      return;
    }
    const decision = await policy.check(url);
    if (!decision.allowed) {
      const text = refuse(decision.host, decision.reason);
      res
        .writeHead(403, {
          'content-type': 'text/html; charset=utf-8',
          [BLOCKED_HEADER]: encodeURIComponent(text),
        })
        .end(`<!doctype html><title>Blocked</title><h1>Blocked by Argus</h1><p>${escapeHtml(text)}</p>`);
      return;
    }
    forward(req, res, { address: decision.addresses[0] as string, port: decision.port, url, agent });
  });

  // HTTPS and WebSocket traffic arrives as CONNECT host:port tunnels.
  server.on('connect', async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    client.on('error', () => client.destroy());
    if (!authorised(req)) {
      client.end(
        `HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${challenge}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    const target = req.url ?? '';
    const decision = await policy.check(`https://${target}/`);
    if (!decision.allowed) {
      const text = refuse(decision.host, decision.reason);
      client.end(
        `HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${encodeURIComponent(text)}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    const upstream = connect(decision.port, decision.addresses[0], () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    tunnels.add(upstream);
    upstream.on('close', () => {
      tunnels.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  });

  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const publicHost = options.publicHost ?? host;

  return {
    url: `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`,
    credentials: options.credentials,
    refusalFor: (host) => refusals.get(host.toLowerCase().replace(/^\[|\]$/g, '')),
    close: async () => {
      for (const socket of tunnels) socket.destroy();
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
