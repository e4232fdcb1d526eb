import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Database, openMigratedPglite } from '@argus/db';
import { WS_CLOSE_REASONS, WS_PREAUTH_MAX_PAYLOAD_BYTES } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { client } from '../testing/api-targets';
import { openSocket, type TestSocket } from '../testing/ws-client';

/**
 * The socket under load and attack, against the whole app in this process (listening on an ephemeral
 * 127.0.0.1 port) so the server's memory can be read directly: unauthenticated frames are refused at
 * their header, tokens in URLs are refused, sockets are capped per user and per address, messages per
 * socket are rate-limited, and a client that stops reading is closed.
 */

const LIMITS = {
  MAX_SOCKETS_PER_USER: '3',
  MAX_SOCKETS_PER_ADDRESS: '40',
  WS_MESSAGES_PER_SECOND: '1',
  WS_MESSAGE_BURST: '5',
  WS_MAX_BUFFERED_BYTES: String(1024 * 1024),
};

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
/** What the process holds after a full collection: the JS heap plus Buffers (where frames are kept). */
function held() {
  gc();
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, arrayBuffers, rss };
}

interface RawAttacker {
  socket: Socket;
  /** Settles with the server's close frame, or null once everything was written without one. */
  outcome: Promise<{ code: number; reason: string } | null>;
}

const SHARED_MIB = Buffer.alloc(1024 * 1024, 0x61);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * A client that upgrades without a token and then sends most of a 10 MB text frame (the header
 * announcing 10 MB, then `sendBytes` of it, from one shared buffer so the client itself holds little).
 */
function rawAttacker(port: number, path: string, sendMiB: number): RawAttacker {
  const socket = connect(port, '127.0.0.1');
  const outcome = new Promise<{ code: number; reason: string } | null>((resolve) => {
    let received = Buffer.alloc(0);
    let upgraded = false;
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(null));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (!upgraded) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (received.subarray(0, 12).toString() !== 'HTTP/1.1 101') return resolve(null);
        upgraded = true;
        received = received.subarray(end + 4);
        const header = Buffer.alloc(14);
        header[0] = 0x81; // FIN, text
        header[1] = 0x80 | 127; // masked, 64-bit length
        header.writeBigUInt64BE(BigInt(10 * 1024 * 1024), 2);
        header.writeUInt32BE(0, 10); // a zero mask: the payload goes as is
        socket.write(header);
        for (let i = 0; i < sendMiB; i++) {
          const last = i === sendMiB - 1;
          socket.write(SHARED_MIB, last ? () => resolve(null) : undefined);
        }
      }
      // A close frame from the server: 0x88, a short length, the code, the reason.
      if (received.length >= 4 && received[0] === 0x88) {
        const length = received[1] & 0x7f;
        if (received.length < 2 + length) return;
        resolve({
          code: received.readUInt16BE(2),
          reason: received.subarray(4, 2 + length).toString(),
        });
      }
    });
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
  });
  return { socket, outcome };
}

describe('socket limits (in-process app, PGlite in memory)', () => {
  let app: FastifyInstance;
  let db: Database;
  let dataDir: string;
  let port: number;
  let base: string;
  let alice: { token: string; user: { id: string } };
  const opened: TestSocket[] = [];
  const open = (path: string) => {
    const socket = openSocket(`${base}${path}`);
    opened.push(socket);
    return socket;
  };
  const signedIn = async () => {
    const socket = open(`/ws/${alice.user.id}?token=${alice.token}`);
    await socket.next('connection_established', 10_000);
    return socket;
  };
  const closeAll = async () => {
    const open = opened.splice(0).filter((s) => s.ws.readyState !== WebSocket.CLOSED);
    for (const s of open) s.ws.terminate();
    await Promise.all(open.map((s) => s.closed));
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'argus-socket-limits-'));
    const config = loadConfig({ DATA_DIR: dataDir, ...LIMITS });
    db = await openMigratedPglite();
    app = await buildApp({ config, db, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    base = `ws://127.0.0.1:${port}`;
    alice = await client(`http://127.0.0.1:${port}`).signUp('alice');
  }, 60_000);
  afterAll(async () => {
    await closeAll();
    await app?.close();
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a token in the URL, even a valid one: 4401 saying to send an auth message', async () => {
    const ws = new WebSocket(`${base}/ws/${alice.user.id}?token=${alice.token}`);
    const messages: string[] = [];
    ws.on('message', (raw) => messages.push(raw.toString()));
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    expect(closed).toEqual(WS_CLOSE_REASONS.tokenInUrl);
    expect(messages).toEqual([]);
  });

  it('closes a socket that sends a pile of messages while its auth message is being checked', async () => {
    const ws = new WebSocket(`${base}/ws/${alice.user.id}`);
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.send(JSON.stringify({ type: 'auth', data: { token: alice.token } }));
    for (let i = 0; i < 200; i++) ws.send('{"type":"get_automation_status","data":{}}');
    expect(await closed).toEqual(WS_CLOSE_REASONS.preAuthFlood);
  });

  it('reads a large message once the socket is authenticated (a design as a data URL)', async () => {
    const socket = await signedIn();
    const image = `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}`;
    socket.send('upload_and_compare_image', { image_data: image, website_url: 'ftp://example.com' });
    const error = await socket.next('error');
    expect(error.data.code).toBe('VALIDATION');
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    await closeAll();
  });

  it('refuses messages over the rate with an error naming the limit, then closes a socket that keeps on', async () => {
    const socket = await signedIn();
    for (let i = 0; i < 40; i++) socket.ws.send('{not json');
    expect(await socket.closed).toEqual(WS_CLOSE_REASONS.messageFlood);
    const errors = socket.all.filter((m) => m.type === 'error');
    const limited = errors.filter((m) => m.data.code === 'RATE_LIMITED');
    // The burst (5, and one more a second) is answered; beyond it each message is refused until
    // more than a burst's worth of refusals closes the socket.
    expect(errors.filter((m) => m.data.code === 'VALIDATION').length).toBeGreaterThanOrEqual(5);
    expect(limited.length).toBe(5);
    expect(limited[0].data.message).toBe(
      'Too many messages: at most 1 a second with a burst of 5 per socket (WS_MESSAGES_PER_SECOND, WS_MESSAGE_BURST); this one was dropped.',
    );
    await closeAll();
  });

  it('caps the sockets of one user: the next one is closed with 1013 naming MAX_SOCKETS_PER_USER', async () => {
    await until(() => app.hub.connectionCount(alice.user.id) === 0);
    const three = [await signedIn(), await signedIn(), await signedIn()];
    const fourth = open(`/ws/${alice.user.id}?token=${alice.token}`);
    expect(await fourth.closed).toEqual(WS_CLOSE_REASONS.tooManySocketsForUser);
    expect(fourth.all).toEqual([]);
    three[0].ws.close(1000);
    await three[0].closed;
    await until(() => app.hub.connectionCount(alice.user.id) < 3);
    await signedIn();
    await closeAll();
  });

  it('caps the sockets of one client address, authenticated or not, with 1013 naming MAX_SOCKETS_PER_ADDRESS', async () => {
    await until(() => app.websocketServer.clients.size === 0);
    const forty = Array.from({ length: 40 }, () => open(`/ws/${alice.user.id}`));
    await Promise.all(forty.map((s) => s.opened));
    const extra = open(`/ws/${alice.user.id}`);
    expect(await extra.closed).toEqual(WS_CLOSE_REASONS.tooManySocketsForAddress);
    await closeAll();
  });

  it('closes a socket that stops reading once more than WS_MAX_BUFFERED_BYTES wait to be sent', async () => {
    const before = new Set(app.websocketServer.clients);
    const socket = await signedIn();
    const [server] = [...app.websocketServer.clients].filter((c) => !before.has(c));
    // The client reads nothing: what the server sends piles up in the kernel, then in ws.
    (socket.ws as unknown as { _socket: Socket })._socket.pause();
    const chunk = 'p'.repeat(256 * 1024);
    const closing = () => server.readyState === WebSocket.CLOSING;
    let sent = 0;
    while (!closing() && sent < 400) {
      app.hub.sendToUser(alice.user.id, {
        type: 'progress_update',
        session_id: null,
        data: { message: chunk },
      });
      sent++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(closing()).toBe(true);
    (socket.ws as unknown as { _socket: Socket })._socket.resume();
    expect(await socket.closed).toEqual(WS_CLOSE_REASONS.slowReader);
    console.log(`[socket limits] a socket that stopped reading was closed after ${sent} × 256 KiB messages`);
  }, 60_000);

  // Last: a socket closed for a frame over the limit stops reading and lingers (at most ws's 30 s
  // close timer), still counted against its address.
  it('closes an unauthenticated socket at the header of a frame over the pre-auth limit, with 1009 and why', async () => {
    const ws = new WebSocket(`${base}/ws/${alice.user.id}`);
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.send('x'.repeat(WS_PREAUTH_MAX_PAYLOAD_BYTES + 1));
    expect(await closed).toEqual(WS_CLOSE_REASONS.preAuthTooLarge);
  });

  it('holds no memory for 32 unauthenticated sockets each sending most of a 10 MB frame, and keeps answering', async () => {
    const before = held();
    const attackers = Array.from({ length: 32 }, () => rawAttacker(port, `/ws/${alice.user.id}`, 9));
    const outcomes = await Promise.all(attackers.map((a) => a.outcome));
    const during = held();
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    for (const a of attackers) a.socket.destroy();
    const grew = during.heapUsed + during.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    console.log(
      `[socket limits] 32 sockets × 9 MiB of a 10 MB pre-auth frame: heap+buffers ${mib(grew)}, ` +
        `rss ${mib(during.rss - before.rss)}; closes: ${outcomes.filter(Boolean).length}/32`,
    );
    expect(outcomes).toEqual(Array(32).fill(WS_CLOSE_REASONS.preAuthTooLarge));
    // Before the limit every socket held what it had sent: 32 × 9 MiB.
    expect(grew).toBeLessThan(16 * 1024 * 1024);
    expect(health.status).toBe(200);
  }, 60_000);
});
