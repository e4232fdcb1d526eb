import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStep } from '@argus/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { endurance } from '../testing/endurance';
import { freePort, type RunningServer, spawnServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

/**
 * Conversational mode against the real server and Chromium: the live browser's frames, chat turns
 * with the built-in chat planner, takeover input, isolation between users, the beacon, the grace
 * period, the idle timeout, the limits, a reader that reads nothing, start/stop cycles, and the
 * stored conversations (REST, save as test).
 */

// ---- a small site the browser may reach (ALLOWED_TARGETS=127.0.0.1) ------------------------------

/**
 * `/`: an About link, a button at a fixed place that reports its press to the site, and on load its
 * own position (so the test computes where to click on the canvas from the page itself).
 * `/noise`: a canvas repainted with noise every animation frame: a steady stream of large frames.
 */
const HOME = `<!doctype html><html><head><title>Home</title>
<style>body{margin:0;font:16px sans-serif} #go{position:absolute;left:120px;top:220px;width:180px;height:60px}</style>
</head><body><h1>Live home</h1><a href="/about">About</a>
<button id="go" onclick="fetch('/pressed');this.textContent='Pressed'">Press me</button>
<script>addEventListener('load',()=>{const r=document.getElementById('go').getBoundingClientRect();
const a=document.querySelector('a').getBoundingClientRect();
fetch('/pos?x='+r.x+'&y='+r.y+'&w='+r.width+'&h='+r.height+'&ax='+a.x+'&ay='+a.y+'&aw='+a.width+'&ah='+a.height)})</script></body></html>`;
const ABOUT =
  '<!doctype html><html><head><title>About</title></head><body><h1>About us</h1><a href="/">Home</a></body></html>';
const NOISE = `<!doctype html><html><head><title>Noise</title><style>body{margin:0}</style></head><body>
<canvas id="c" width="854" height="480"></canvas><script>
const c=document.getElementById('c').getContext('2d');const img=c.createImageData(854,480);
function draw(){const d=img.data;for(let i=0;i<d.length;i+=4){const v=(Math.random()*255)|0;d[i]=v;d[i+1]=(v*7)&255;d[i+2]=(v*13)&255;d[i+3]=255}
c.putImageData(img,0,0);requestAnimationFrame(draw)}draw();</script></body></html>`;

interface Site {
  url: string;
  requests: string[];
  close: () => Promise<void>;
}

async function serveSite(): Promise<Site> {
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push(path);
    const page = path === '/' ? HOME : path === '/about' ? ABOUT : path === '/noise' ? NOISE : null;
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---- helpers -----------------------------------------------------------------------------------

/** Live-browser start/stop cycles, and how long a tab reads nothing (the long versions in CI's endurance project). */
const CYCLES = endurance(12, 100);
const STALL_SECONDS = endurance(3, 8);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const framesOf = (socket: TestSocket, sessionId?: string) =>
  socket.all.filter((m) => m.type === 'video_frame' && (!sessionId || m.session_id === sessionId));

/** The next message of `type` about `sessionId` (others of that type are skipped). */
async function nextAbout(
  socket: TestSocket,
  type: string,
  sessionId: string,
  timeoutMs = 30_000,
): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = await socket.next(type, Math.max(1, deadline - Date.now()));
    if (message.session_id === sessionId) return message;
  }
}

interface User {
  token: string;
  id: string;
}

describe('conversational mode (real server, Chromium)', () => {
  let server: RunningServer;
  let site: Site;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;
  const sockets: TestSocket[] = [];

  const connect = async (user: User): Promise<TestSocket> => {
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${user.id}?token=${user.token}`);
    sockets.push(socket);
    await socket.next('connection_established', 20_000);
    return socket;
  };
  const newSession = async (user: User, url: string): Promise<string> => {
    const res = await api.call('POST', '/api/sessions/', {
      token: user.token,
      json: { title: 'Video Chat Session', session_type: 'conversational', url },
    });
    expect(res.status).toBe(201);
    return res.data.id as string;
  };
  const diagnostics = async (user: User) => {
    const res = await api.call('GET', '/api/conversations/diagnostics', { token: user.token });
    expect(res.status).toBe(200);
    return res.data as {
      live: number;
      pool: { active: number; waiting: number };
      frames: { sent: number; replaced: number; dropped: number; pending: number };
      memory: { rss: number; heapUsed: number };
      browserPid: number | null;
    };
  };
  /** Starts a live browser and waits until it is ready. */
  const startLive = async (socket: TestSocket, sessionId: string, url: string, video = true) => {
    // What an earlier start or stop left unread (a 'stopped' status) is not this start's.
    socket.messages.length = 0;
    socket.send('start_conversation', { session_id: sessionId, url, video_streaming: video });
    const statuses: string[] = [];
    for (;;) {
      const status = await nextAbout(socket, 'browser_status', sessionId);
      statuses.push(status.data.status as string);
      if (status.data.status !== 'loading') break;
    }
    return statuses;
  };
  const stopLive = async (socket: TestSocket, sessionId: string) => {
    socket.send('stop_conversation', { session_id: sessionId, reason: 'user' });
    return nextAbout(socket, 'conversation_stopped', sessionId);
  };

  beforeAll(async () => {
    site = await serveSite();
    // A server process of its own: these tests read the server's heap (diagnostics), which in the
    // test's own process would also hold every frame the test's tabs received.
    server = await spawnServer({
      ALLOWED_TARGETS: '127.0.0.1',
      MAX_BROWSERS: '6',
      MAX_LIVE_BROWSERS_PER_USER: '1',
      CONVERSATION_GRACE_MS: '2000',
      CONVERSATION_IDLE_MS: '120000',
    });
    api = client(server);
    const a = await api.signUp('alice_live');
    const b = await api.signUp('bob_live');
    alice = { token: a.token, id: a.user.id };
    bob = { token: b.token, id: b.user.id };
  });
  afterEach(() => {
    // Each test's tabs go with it: an open tab of the user would hold off the grace period.
    for (const socket of sockets.splice(0)) socket.ws.terminate();
  });
  afterAll(async () => {
    await server?.stop();
    await site?.close();
  });

  it('streams JPEG frames after loading → ready; a chat turn clicks a link; a takeover click presses the button under it; stop ends it', async () => {
    const tab = await connect(alice);
    const session = await newSession(alice, `${site.url}/`);
    expect(await startLive(tab, session, `${site.url}/`)).toEqual(['loading', 'ready']);
    await until('3 frames', () => framesOf(tab, session).length >= 1);
    const frame = framesOf(tab, session)[0];
    expect(frame.data.frame).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    const jpeg = Buffer.from(String(frame.data.frame).split(',')[1], 'base64');
    expect(jpeg.length).toBeGreaterThan(1000);

    // A chat turn through the real built-in chat planner: the link is clicked, the URL changes.
    tab.send('conversation_message', {
      session_id: session,
      message: 'click About',
      current_url: `${site.url}/`,
    });
    const action = await nextAbout(tab, 'browser_action', session);
    expect(action.data).toMatchObject({ url: `${site.url}/about`, video_streaming: true });
    expect(() => parseStep(String(action.data.action))).not.toThrow();
    const response = await nextAbout(tab, 'conversation_response', session);
    expect(response.data.message).toEqual(expect.any(String));
    expect(response.data.actions).toEqual([expect.objectContaining({ url: `${site.url}/about` })]);

    // Back home by chat; the page says where its button is; a click on the canvas (drawn at half
    // size) at the button's centre presses it.
    site.requests.length = 0;
    tab.send('conversation_message', { session_id: session, message: `go to ${site.url}/` });
    await nextAbout(tab, 'conversation_response', session);
    const pos = await until(
      'the button position',
      () => site.requests.find((r) => r.startsWith('/pos?')) ?? '',
    );
    const p = new URLSearchParams(pos.split('?')[1]);
    const centre = {
      x: Number(p.get('x')) + Number(p.get('w')) / 2,
      y: Number(p.get('y')) + Number(p.get('h')) / 2,
    };
    const canvas = { width: 427, height: 240 };
    tab.send('browser_input', {
      session_id: session,
      canvas,
      input: { type: 'pointer', action: 'click', x: centre.x / 2, y: centre.y / 2, button: 'left' },
    });
    await until('the button to be pressed', () => site.requests.includes('/pressed'), 10_000);
    expect(tab.all.filter((m) => m.type === 'error')).toEqual([]);

    // A takeover click on the About link: the page changes outside any chat turn, and the screen is
    // told where it went (its URL bar follows).
    const link = {
      x: Number(p.get('ax')) + Number(p.get('aw')) / 2,
      y: Number(p.get('ay')) + Number(p.get('ah')) / 2,
    };
    tab.send('browser_input', {
      session_id: session,
      canvas,
      input: { type: 'pointer', action: 'click', x: link.x / 2, y: link.y / 2, button: 'left' },
    });
    const navigated = await until(
      'a navigation notice',
      () => tab.all.find((m) => m.type === 'browser_action' && m.data.action === 'navigated'),
      10_000,
    );
    expect(navigated?.session_id).toBe(session);
    expect(navigated?.data).toMatchObject({ action: 'navigated', url: `${site.url}/about` });

    const stopped = await stopLive(tab, session);
    expect(stopped.data.message).toEqual(expect.any(String));
    await sleep(300);
    const count = framesOf(tab, session).length;
    await sleep(700);
    expect(framesOf(tab, session).length).toBe(count);
    expect((await diagnostics(alice)).live).toBe(0);

    // The conversation was stored: the user's message and the reply with its actions; another user
    // cannot read it; its actions become a test case whose steps parse.
    const list = await api.call('GET', '/api/conversations', { token: alice.token });
    expect(list.status).toBe(200);
    const stored = list.data.find((c: { session_id: string }) => c.session_id === session);
    expect(stored).toMatchObject({ url: `${site.url}/` });
    const read = await api.call('GET', `/api/conversations/${stored.id}`, { token: alice.token });
    expect(read.data.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(read.data.messages[1].actions[0]).toMatchObject({ url: `${site.url}/about` });
    expect((await api.call('GET', `/api/conversations/${stored.id}`, { token: bob.token })).status).toBe(404);

    const saved = await api.call('POST', `/api/conversations/${stored.id}/test-case`, {
      token: alice.token,
      json: { test_name: 'About from the chat' },
    });
    expect(saved.status).toBe(201);
    const steps = saved.data.test_case.steps as string[];
    expect(steps[0]).toBe(`Navigate to ${site.url}/`);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    for (const step of steps) expect(() => parseStep(step)).not.toThrow();
    expect(saved.data.test_case).toMatchObject({
      test_name: 'About from the chat',
      category: 'Conversation',
    });
    const automation = await api.call('GET', `/api/sessions/${saved.data.automation_session_id}`, {
      token: alice.token,
    });
    expect(automation.data).toMatchObject({ session_type: 'automation', settings: { url: `${site.url}/` } });
    expect(automation.data.settings.testCases).toHaveLength(1);
    // Saved again into the same session: appended.
    const again = await api.call('POST', `/api/conversations/${stored.id}/test-case`, {
      token: alice.token,
      json: { automation_session_id: saved.data.automation_session_id },
    });
    expect(again.status).toBe(201);
    expect(again.data.test_case.test_name).toMatch(/^Conversation: /);
    const after = await api.call('GET', `/api/sessions/${saved.data.automation_session_id}`, {
      token: alice.token,
    });
    expect(after.data.settings.testCases).toHaveLength(2);
    // Bob can neither save Alice's conversation nor save his into Alice's automation session.
    expect(
      (await api.call('POST', `/api/conversations/${stored.id}/test-case`, { token: bob.token, json: {} }))
        .status,
    ).toBe(404);
  });

  it('two users never see each other’s frames; the beacon with another user’s session does nothing, the owner’s stops it', async () => {
    const aliceTab = await connect(alice);
    const bobTab = await connect(bob);
    const aliceSession = await newSession(alice, `${site.url}/noise`);
    const bobSession = await newSession(bob, `${site.url}/noise`);
    await startLive(aliceTab, aliceSession, `${site.url}/noise`);
    await startLive(bobTab, bobSession, `${site.url}/noise`);
    await until('frames for both', () => framesOf(aliceTab).length > 5 && framesOf(bobTab).length > 5);
    await sleep(1000);
    expect(framesOf(aliceTab).every((m) => m.session_id === aliceSession)).toBe(true);
    expect(framesOf(bobTab).every((m) => m.session_id === bobSession)).toBe(true);
    expect(framesOf(aliceTab, bobSession)).toEqual([]);

    // Bob's beacon names Alice's session: accepted (it names nothing of his) and nothing of hers stops.
    const beacon = (token: string, sessionId: string) =>
      api.call('POST', '/cleanup', {
        json: {
          token,
          type: 'stop_conversation',
          data: {
            session_id: sessionId,
            reason: 'page_unload',
            forced_cleanup: true,
            timestamp: new Date().toISOString(),
          },
        },
      });
    expect((await beacon(bob.token, aliceSession)).status).toBe(202);
    await sleep(500);
    const before = framesOf(aliceTab, aliceSession).length;
    await sleep(1000);
    expect(framesOf(aliceTab, aliceSession).length).toBeGreaterThan(before);
    expect(aliceTab.all.some((m) => m.type === 'conversation_stopped')).toBe(false);
    // Bob's own browser is untouched by his beacon about a session he does not have.
    expect(framesOf(bobTab, bobSession).length).toBeGreaterThan(0);

    // Alice's own beacon stops hers.
    expect((await beacon(alice.token, aliceSession)).status).toBe(202);
    await nextAbout(aliceTab, 'conversation_stopped', aliceSession, 10_000);
    await stopLive(bobTab, bobSession);
    expect((await diagnostics(alice)).live).toBe(0);
  });

  it('one live browser per user (MAX_LIVE_BROWSERS_PER_USER): a second start gets a clear message', async () => {
    const tab = await connect(alice);
    const first = await newSession(alice, `${site.url}/`);
    const second = await newSession(alice, `${site.url}/`);
    await startLive(tab, first, `${site.url}/`);
    tab.send('start_conversation', { session_id: second, url: `${site.url}/`, video_streaming: true });
    const error = await nextAbout(tab, 'error', second);
    expect(error.data).toMatchObject({ code: 'BROWSER_LIMIT_REACHED', feature: 'conversational' });
    expect(error.data.message).toContain('MAX_LIVE_BROWSERS_PER_USER');
    // Another user's session id is refused as not found.
    tab.send('start_conversation', {
      session_id: '00000000-0000-4000-8000-000000000000',
      url: '',
      video_streaming: true,
    });
    expect((await tab.next('error')).data).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await stopLive(tab, first);
  });

  it('a dropped socket keeps the browser for the grace period (a reconnect resumes the stream), then closes it', async () => {
    const session = await newSession(alice, `${site.url}/noise`);
    const tab = await connect(alice);
    await startLive(tab, session, `${site.url}/noise`);
    await until('frames', () => framesOf(tab, session).length > 3);
    tab.ws.close();
    await tab.closed;
    await sleep(800);
    const back = await connect(alice);
    await until('frames on the new socket', () => framesOf(back, session).length > 3, 5000);
    expect(back.all.some((m) => m.type === 'conversation_stopped')).toBe(false);
    expect((await diagnostics(alice)).live).toBe(1);

    back.ws.close();
    await back.closed;
    // 2 s of grace, counted within a quarter of a second; then the browser closes.
    await until('the browser to close', async () => (await diagnostics(alice)).live === 0, 6000);
    const late = await connect(alice);
    await sleep(500);
    expect(framesOf(late, session)).toEqual([]);
    expect((await diagnostics(alice)).pool.active).toBe(0);
  });

  it(`endurance: a tab that reads nothing for ${STALL_SECONDS} s does not make the server hold frames: they are replaced, not queued`, async () => {
    const session = await newSession(alice, `${site.url}/noise`);
    const reader = await connect(alice);
    const stalled = await connect(alice);
    stalled.ws.pause();
    const before = await diagnostics(alice);
    await startLive(reader, session, `${site.url}/noise`);
    let maxPending = 0;
    const started = Date.now();
    while (Date.now() - started < STALL_SECONDS * 1000) {
      maxPending = Math.max(maxPending, (await diagnostics(alice)).frames.pending);
      await sleep(250);
    }
    const after = await diagnostics(alice);
    const received = framesOf(reader, session);
    const bytes = received.reduce((n, m) => n + String(m.data.frame).length, 0);
    const figures = {
      framesToTheReadingTab: received.length,
      averageFrameKiB: Math.round(bytes / Math.max(1, received.length) / 1024),
      sent: after.frames.sent - before.frames.sent,
      replacedUnsent: after.frames.replaced - before.frames.replaced,
      maxPending,
      heapGrowthMiB: ((after.memory.heapUsed - before.memory.heapUsed) / 2 ** 20).toFixed(1),
      rssGrowthMiB: ((after.memory.rss - before.memory.rss) / 2 ** 20).toFixed(1),
    };
    console.log(`[conversational frames, one tab stalled ${STALL_SECONDS} s] ${JSON.stringify(figures)}`);
    // The stalled tab's frames were replaced while it read nothing; at most one waits per socket.
    expect(after.frames.replaced - before.frames.replaced).toBeGreaterThan(Math.floor(STALL_SECONDS * 1.25));
    expect(maxPending).toBeLessThanOrEqual(2);
    // The reading tab kept getting frames, and what the stalled one would have piled up is not held.
    expect(received.length).toBeGreaterThan(Math.floor(STALL_SECONDS * 2.5));
    expect(after.memory.heapUsed - before.memory.heapUsed).toBeLessThan(64 * 2 ** 20);
    await stopLive(reader, session);
    stalled.ws.terminate();
  });

  it(`endurance: ${CYCLES} start/stop cycles leave no browser context nor renderer behind`, async () => {
    const tab = await connect(alice);
    const session = await newSession(alice, `${site.url}/about`);
    // One cycle first, so the browser is up before counting; while it is live its page has a
    // renderer (the count sees it), once stopped that renderer goes.
    await startLive(tab, session, `${site.url}/about`);
    const browserPid = (await diagnostics(alice)).browserPid;
    expect(browserPid).toEqual(expect.any(Number));
    expect(renderersOf(browserPid as number)).toBeGreaterThanOrEqual(1);
    await stopLive(tab, session);
    await sleep(1000);
    const renderersBefore = renderersOf(browserPid as number);
    const started = Date.now();
    for (let i = 0; i < CYCLES; i++) {
      const statuses = await startLive(tab, session, `${site.url}/about`);
      expect(statuses.at(-1)).toBe('ready');
      await stopLive(tab, session);
    }
    const seconds = (Date.now() - started) / 1000;
    await sleep(1500);
    const diag = await diagnostics(alice);
    const renderersAfter = renderersOf(browserPid as number);
    console.log(
      `[${CYCLES} start/stop cycles] ${seconds.toFixed(1)} s; renderers before ${renderersBefore}, after ${renderersAfter}; pool ${JSON.stringify(diag.pool)}`,
    );
    expect(diag.live).toBe(0);
    expect(diag.pool.active).toBe(0);
    expect(diag.pool.waiting).toBe(0);
    expect(renderersAfter).toBeLessThanOrEqual(renderersBefore + 1);
  }, 180_000);
});

/** Renderer processes under one browser process (other browsers on the machine are not counted). */
function renderersOf(browserPid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const under = new Set([browserPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!under.has(row.pid) && under.has(row.ppid)) {
        under.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => under.has(row.pid) && row.args.includes('--type=renderer')).length;
}

describe('conversational mode: idle timeout and an unreachable start page', () => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    const closedPort = await freePort();
    server = await spawnServer({
      ALLOWED_TARGETS: '127.0.0.1',
      CONVERSATION_IDLE_MS: '1500',
      CONVERSATION_START_URL: `http://127.0.0.1:${closedPort}/`,
    });
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('an empty URL opens CONVERSATION_START_URL; unreachable, the user is told so; idle, the browser closes', async () => {
    const { token, user } = await api.signUp('idle_user');
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${user.id}?token=${token}`);
    await socket.next('connection_established', 20_000);
    const session = 'local_idle';
    const opened = Date.now();
    socket.send('start_conversation', { session_id: session, url: '', video_streaming: true });
    expect((await nextAbout(socket, 'browser_status', session)).data.status).toBe('loading');
    const said = await nextAbout(socket, 'conversation_response', session);
    expect(said.data.message).toMatch(
      /^The default start page http:\/\/127\.0\.0\.1:\d+\/? could not be reached \(HTTP 502\)/,
    );
    expect(said.data.message).toContain('CONVERSATION_START_URL');
    const stopped = await nextAbout(socket, 'conversation_stopped', session, 10_000);
    expect(stopped.data.message).toContain('CONVERSATION_IDLE_MS');
    expect(Date.now() - opened).toBeGreaterThan(1000);
    socket.ws.terminate();
  });
});
