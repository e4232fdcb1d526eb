/**
 * Live video benchmark (not a test): `npm run bench:video`.
 *
 * An animated page (a CSS animation and a requestAnimationFrame counter) at 854×480 (the conversational
 * canvas and the live browser's viewport), measured for BENCH_SECONDS each, in the same run:
 * 1. raw CDP: playwright-core's Chromium, `Page.startScreencast` on the page, each frame acknowledged at
 *    once: frames per second, bytes per second, capture-to-handler latency;
 * 2. Argus: the real server (its own process) streaming the same page to a WebSocket client as the
 *    conversational screen gets it (`start_conversation`: BrowserSession.startScreencast →
 *    RealtimeHub.sendFrame, acknowledged frame by frame, latest wins): frames per second and bytes per second received by the
 *    client, capture-to-client latency (CDP's frame timestamp to the client's receipt; one machine, one
 *    clock), and the server process's CPU time per second of streaming.
 * 3. the same through a web process and a worker (REDIS_URL, the machine's PostgreSQL and Redis): the
 *    live browser on the worker, its frames published on Redis to the web process holding the socket.
 * Reported: Argus fps / raw fps (aim ≥ 0.95×), latency median and p95 (aim: p95 < 30 ms); through a
 * worker / one process fps (aim ≥ 0.9×), docs/DEPLOYMENT.md#what-was-measured-here.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createScratchDatabase } from '@argus/db';
import { CHROMIUM_ARGS, findChromium } from '@argus/engine';
import { Redis } from 'ioredis';
import { chromium } from 'playwright-core';
import { client } from '../apps/server/src/testing/api-targets';
import { spawnServer, spawnWorker } from '../apps/server/src/testing/spawn-server';
import { openSocket } from '../apps/server/src/testing/ws-client';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** The web + worker side needs PostgreSQL and Redis (a scratch database; a Redis database emptied before and after). */
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

const ANIMATED = `<!doctype html><html><head><title>Animated</title><style>
body{margin:0;font:24px sans-serif;background:#0f172a;color:#fff}
.box{width:160px;height:160px;background:linear-gradient(45deg,#6366f1,#22d3ee);position:absolute;top:200px;animation:slide 2s linear infinite alternate}
@keyframes slide{from{left:0}to{left:1100px}}</style></head>
<body><h1>Animated page</h1><p id="n">0</p><div class="box"></div>
<script>let n=0;(function tick(){document.getElementById('n').textContent=String(n++);requestAnimationFrame(tick)})()</script></body></html>`;

const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ANIMATED));
await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;

// 1. Raw CDP.
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const raw = { frames: 0, bytes: 0, latency: [] as number[] };
{
  const context = await browser.newContext({ viewport: { width: 854, height: 480 } });
  const tab = await context.newPage();
  await tab.goto(pageUrl);
  const cdp = await context.newCDPSession(tab);
  let measuring = false;
  cdp.on('Page.screencastFrame', (event) => {
    void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    if (!measuring) return;
    raw.frames += 1;
    raw.bytes += Buffer.byteLength(event.data, 'base64');
    if (event.metadata.timestamp) raw.latency.push(Date.now() - event.metadata.timestamp * 1000);
  });
  await cdp.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 60,
    maxWidth: 854,
    maxHeight: 480,
    everyNthFrame: 1,
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  await cdp.send('Page.stopScreencast');
  await context.close();
}
await browser.close();

// 2. Through the Argus server to a socket client: the conversational live browser. 3. The same through
// a web process and a worker (REDIS_URL): the live browser on the worker, its frames through Redis.
interface Streamed {
  frames: number;
  bytes: number;
  latency: number[];
  /** CPU seconds of the process holding the browser (the worker's, with one). */
  cpuSeconds: number;
}
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, clock ticks of 10 ms
};

async function throughArgus(withWorker: boolean): Promise<Streamed> {
  const scratch = withWorker ? await createScratchDatabase(PG_URL) : undefined;
  const redis = withWorker ? new Redis(REDIS_URL, { maxRetriesPerRequest: null }) : undefined;
  await redis?.flushdb();
  const env: Record<string, string> = {
    ALLOWED_TARGETS: '127.0.0.1',
    ...(scratch ? { DATABASE_URL: scratch.url, REDIS_URL } : {}),
  };
  const server = await spawnServer(env);
  const worker = withWorker ? await spawnWorker(server.port, server.dataDir, env) : undefined;
  const streamed: Streamed = { frames: 0, bytes: 0, latency: [], cpuSeconds: 0 };
  try {
    const api = client(server.url);
    const user = await api.signUp('bench');
    const sessionId = (
      await api.call('POST', '/api/sessions/', {
        token: user.token,
        json: { title: 'Video Chat Session', session_type: 'conversational', url: pageUrl },
      })
    ).data.id as string;
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${user.user.id}?token=${user.token}`);
    await socket.next('connection_established');
    let measuring = false;
    socket.ws.on('message', (raw: Buffer) => {
      if (!measuring) return;
      const message = JSON.parse(raw.toString()) as {
        type: string;
        data: { frame: string; timestamp: number };
      };
      if (message.type !== 'video_frame') return;
      streamed.frames += 1;
      streamed.bytes += Buffer.byteLength(
        message.data.frame.replace(/^data:image\/jpeg;base64,/, ''),
        'base64',
      );
      streamed.latency.push(Date.now() - Number(message.data.timestamp));
    });
    socket.send('start_conversation', { session_id: sessionId, url: pageUrl, video_streaming: true });
    await socket.next('video_frame', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const pid = worker?.pid ?? server.pid;
    const before = cpuOf(pid);
    measuring = true;
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    measuring = false;
    streamed.cpuSeconds = cpuOf(pid) - before;
    socket.send('stop_conversation', { session_id: sessionId });
    await socket.next('conversation_stopped', 30_000);
    socket.ws.close(1000);
  } finally {
    await worker?.stop();
    await server.stop();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
  }
  return streamed;
}

const argus = await throughArgus(false);
const viaWorker = await throughArgus(true);
await new Promise<void>((resolve) => page.close(() => resolve()));

const fps = (n: number) => n / SECONDS;
console.log(
  `Live video benchmark — ${SECONDS} s per side; ${cpus().length} CPUs, load ${loadavg()[0].toFixed(1)}`,
);
console.log(
  `raw CDP screencast:  ${fps(raw.frames).toFixed(1)} fps, ${(raw.bytes / SECONDS / 1024).toFixed(0)} KiB/s, latency median ${quantile(raw.latency, 0.5).toFixed(0)} ms, p95 ${quantile(raw.latency, 0.95).toFixed(0)} ms`,
);
console.log(
  `Argus to the client: ${fps(argus.frames).toFixed(1)} fps, ${(argus.bytes / SECONDS / 1024).toFixed(0)} KiB/s, latency median ${quantile(argus.latency, 0.5).toFixed(0)} ms, p95 ${quantile(argus.latency, 0.95).toFixed(0)} ms`,
);
console.log(`Argus / raw fps: ${(argus.frames / Math.max(1, raw.frames)).toFixed(2)}× (aim ≥ 0.95×)`);
console.log(
  `server CPU while streaming: ${((argus.cpuSeconds / SECONDS) * 100).toFixed(1)} % of one core (process total, one stream)`,
);
console.log(
  `Argus through a worker: ${fps(viaWorker.frames).toFixed(1)} fps, ${(viaWorker.bytes / SECONDS / 1024).toFixed(0)} KiB/s, latency median ${quantile(viaWorker.latency, 0.5).toFixed(0)} ms, p95 ${quantile(viaWorker.latency, 0.95).toFixed(0)} ms; worker CPU ${((viaWorker.cpuSeconds / SECONDS) * 100).toFixed(1)} % of one core`,
);
console.log(
  `through a worker / one process fps: ${(viaWorker.frames / Math.max(1, argus.frames)).toFixed(2)}× (aim ≥ 0.9×)`,
);
