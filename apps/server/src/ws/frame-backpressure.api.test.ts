import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { endurance } from '../testing/endurance';
import { FRAME_BUFFER_LIMIT_BYTES, RealtimeHub } from './realtime-hub';

/**
 * A tab that stops reading (a background tab, a stalled network) while a live browser streams to it
 * must not make the server hold every frame: `sendFrame` keeps at most one frame waiting per socket
 * and session, the latest, and sends it once the socket's buffer has drained. Measured against
 * plain sends to an equally stalled reader. This runs the hub in-process over real sockets.
 */

/**
 * Frames per second pushed. What matters is how many frames a stalled reader misses (240: enough to
 * fill the kernel's socket buffers many times over), not for how long: the normal suite pushes them
 * in 2 s, CI's endurance project at a live stream's 30 fps for 8 s.
 */
const FPS = endurance(120, 30);
/** Seconds the reader reads nothing while frames are pushed. */
const STALL_SECONDS = endurance(2, 8);
const FRAME_BYTES = 50 * 1024;

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

// A full collection before each reading, so the heap figures are what is held, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function memory() {
  gc();
  return process.memoryUsage();
}

/** ~50 KB JPEG-sized data URLs, distinct per frame. */
const frames = Array.from(
  { length: 4 },
  () => `data:image/jpeg;base64,${randomBytes((FRAME_BYTES * 3) / 4).toString('base64')}`,
);

interface Stalled {
  /** The server's end of the socket. */
  server: WebSocket;
  /** The reader, paused: it reads nothing until resumed. */
  reader: WebSocket;
  received: { timestamp: number; session_id: string }[];
}

describe('video frames to a reader that reads nothing', () => {
  let wss: WebSocketServer;
  let url: string;

  beforeAll(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  async function stalledReader(): Promise<Stalled> {
    const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', (socket) => resolve(socket)));
    const reader = new WebSocket(url);
    const received: Stalled['received'] = [];
    reader.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { session_id: string; data: { timestamp: number } };
      received.push({ timestamp: message.data.timestamp, session_id: message.session_id });
    });
    await new Promise<void>((resolve) => reader.once('open', () => resolve()));
    reader.pause();
    return { server: await accepted, reader, received };
  }

  /** Pushes frames at 30 fps for STALL_SECONDS; `probe` runs after every push. */
  async function push(send: (frame: string, timestamp: number) => void, probe: () => void): Promise<number> {
    const total = FPS * STALL_SECONDS;
    for (let i = 1; i <= total; i++) {
      send(frames[i % frames.length], i);
      probe();
      await new Promise((resolve) => setTimeout(resolve, 1000 / FPS));
    }
    return total;
  }

  it(`endurance: a reader stalled ${STALL_SECONDS} s: at most one frame waits per socket and session, the latest, delivered once the reader reads`, async () => {
    // Plain sends first: what the server would hold without sendFrame.
    const plain = await stalledReader();
    const plainBefore = memory();
    let plainMaxBuffered = 0;
    await push(
      (frame, timestamp) =>
        plain.server.send(
          JSON.stringify({ type: 'video_frame', session_id: 'live-1', data: { frame, timestamp } }),
        ),
      () => {
        plainMaxBuffered = Math.max(plainMaxBuffered, plain.server.bufferedAmount);
      },
    );
    const plainAfter = memory();
    const plainHeld = plain.server.bufferedAmount;
    plain.server.terminate();
    plain.reader.terminate();

    // The same through the hub, to a user with one stalled tab watching two live sessions.
    const hub = new RealtimeHub(log);
    const tab = await stalledReader();
    hub.add('u1', tab.server);
    const before = memory();
    let maxBuffered = 0;
    let maxPending = 0;
    const pushed = await push(
      (frame, timestamp) => {
        hub.sendFrame('u1', 'live-1', { frame, timestamp });
        hub.sendFrame('u1', 'live-2', { frame, timestamp });
      },
      () => {
        maxBuffered = Math.max(maxBuffered, tab.server.bufferedAmount);
        maxPending = Math.max(maxPending, hub.frameStats().pending);
      },
    );
    const after = memory();
    const stats = hub.frameStats();

    const figures = {
      frames: `${pushed} per session at ${FPS} fps, ${FRAME_BYTES / 1024} KB each, reader stalled ${STALL_SECONDS} s`,
      plainSends: {
        maxBufferedInProcess: mib(plainMaxBuffered),
        framesHeldAtEnd: Math.ceil(plainHeld / FRAME_BYTES),
        rssGrowth: mib(plainAfter.rss - plainBefore.rss),
        heapGrowth: mib(plainAfter.heapUsed - plainBefore.heapUsed),
        externalGrowth: mib(
          plainAfter.external + plainAfter.arrayBuffers - plainBefore.external - plainBefore.arrayBuffers,
        ),
      },
      sendFrame: {
        maxBufferedInProcess: mib(maxBuffered),
        framesHeldAtEnd: stats.pending + Math.ceil(tab.server.bufferedAmount / FRAME_BYTES),
        rssGrowth: mib(after.rss - before.rss),
        heapGrowth: mib(after.heapUsed - before.heapUsed),
        externalGrowth: mib(after.external + after.arrayBuffers - before.external - before.arrayBuffers),
        ...stats,
      },
    };
    console.log(`[frames to a stalled reader] ${JSON.stringify(figures, null, 2)}`);

    // The reader really read nothing: plain sends piled up far past the threshold.
    expect(plainMaxBuffered).toBeGreaterThan(10 * FRAME_BUFFER_LIMIT_BYTES);
    // Through the hub: every frame was sent, replaced by a later one, or is the one waiting.
    expect(stats.sent + stats.replaced + stats.pending).toBe(2 * pushed);
    expect(stats.replaced).toBeGreaterThan(0);
    // At most one frame waits per session, and the socket's own buffer never grows past the
    // threshold by more than the frames of one flush (one per session).
    expect(maxPending).toBeLessThanOrEqual(2);
    expect(maxBuffered).toBeLessThanOrEqual(FRAME_BUFFER_LIMIT_BYTES + 2 * (FRAME_BYTES + 1024));
    // So what the process holds for this reader is a handful of frames, however long it sleeps.
    const held = stats.pending + Math.ceil(tab.server.bufferedAmount / FRAME_BYTES);
    expect(held).toBeLessThanOrEqual(2 + Math.ceil(FRAME_BUFFER_LIMIT_BYTES / FRAME_BYTES) + 2);

    // Once the reader reads again, the latest frame of each session arrives.
    tab.reader.resume();
    await vi.waitFor(
      () => {
        for (const session of ['live-1', 'live-2']) {
          expect(tab.received.filter((f) => f.session_id === session).at(-1)?.timestamp).toBe(pushed);
        }
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(hub.frameStats().pending).toBe(0);
    hub.remove('u1', tab.server);
    tab.server.terminate();
    tab.reader.terminate();
  }, 60_000);

  it('drops the frames waiting for a socket that goes away', async () => {
    const hub = new RealtimeHub(log);
    const tab = await stalledReader();
    hub.add('u1', tab.server);
    // As fast as the socket takes them, until the kernel's buffers are full and a frame has to wait.
    for (let i = 1; i <= 2000 && hub.frameStats().pending === 0; i++) {
      hub.sendFrame('u1', 'live-1', { frame: frames[i % frames.length], timestamp: i });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.frameStats().pending).toBe(1);
    hub.remove('u1', tab.server);
    expect(hub.frameStats()).toMatchObject({ pending: 0, dropped: 1 });
    tab.server.terminate();
    tab.reader.terminate();
  }, 30_000);
});
