import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type PolicyProxy, startPolicyProxy } from './policy-proxy';
import { TargetPolicy } from './target-policy';

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

/**
 * An app server that drops a kept-alive connection the moment a second request arrives on it, the
 * way a server's idle timeout races a client's reuse of the connection, and records every body it
 * was asked to answer.
 */
async function appClosingKeptConnections(options: { dropFirst?: boolean } = {}) {
  const answered: string[] = [];
  const served = new WeakSet<object>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (served.has(req.socket) || options.dropFirst) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      const text = `${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`;
      answered.push(text);
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' }).end(text);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, answered, connections: () => connections };
}

async function proxyFor(): Promise<PolicyProxy> {
  const proxy = await startPolicyProxy(new TargetPolicy({ allowedTargets: ['127.0.0.1'] }));
  opened.push(proxy);
  return proxy;
}

/** One request through the proxy, as a browser sends it: an absolute URL to the proxy's port. */
function viaProxy(proxy: PolicyProxy, url: string, method = 'GET', body = '') {
  const proxyUrl = new URL(proxy.url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: proxyUrl.hostname,
        port: Number(proxyUrl.port),
        path: url,
        method,
        headers: { host: new URL(url).host, 'content-length': Buffer.byteLength(body) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the policy proxy and kept-alive connections the app closed', () => {
  it('sends a GET lost on a kept-alive connection again on a new one instead of answering 502', async () => {
    const app = await appClosingKeptConnections();
    const proxy = await proxyFor();
    expect(await viaProxy(proxy, `${app.origin}/first`)).toEqual({ status: 200, text: 'GET /first ' });
    expect(await viaProxy(proxy, `${app.origin}/second`)).toEqual({ status: 200, text: 'GET /second ' });
    expect(app.connections()).toBe(2);
  });

  it('sends a POST lost that way again with its whole body, and the app answers it once', async () => {
    const app = await appClosingKeptConnections();
    const proxy = await proxyFor();
    await viaProxy(proxy, `${app.origin}/warm`);
    const body = JSON.stringify({ title: 'Buy milk', notes: 'x'.repeat(100_000) });
    const answer = await viaProxy(proxy, `${app.origin}/todos`, 'POST', body);
    expect(answer).toEqual({ status: 200, text: `POST /todos ${body}` });
    expect(app.answered.filter((text) => text.startsWith('POST'))).toHaveLength(1);
  });

  it('answers 502 naming the host when a new connection fails too, without trying again', async () => {
    const app = await appClosingKeptConnections({ dropFirst: true });
    const proxy = await proxyFor();
    const answer = await viaProxy(proxy, `${app.origin}/broken`);
    expect(answer.status).toBe(502);
    expect(answer.text).toContain(`Argus proxy could not reach ${new URL(app.origin).host}`);
    expect(app.connections()).toBe(1);
  });
});
