import type { ChatContext, ChatPlanner, ChatTurn } from '@argus/ai';
import {
  AbortedError,
  type BrowserSession,
  type QueueOptions,
  type SessionCloseReason,
  type SessionOptions,
} from '@argus/engine';
import type { ServerMessageInput } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { AppError } from '../errors';
import { BrowserBudget } from '../limits/quotas';
import { startProblem } from './chat-turns';
import { type ConversationDeps, ConversationService } from './conversation-service';
import { LIVE_VIEWPORT } from './live-browsers';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function settle(times = 5) {
  for (let i = 0; i < times; i++) await tick();
}

/** A stand-in for the engine's BrowserSession: records what it is asked, closes like the real one. */
function fakeSession(
  options: SessionOptions,
  behaviour: {
    navigate?: (url: string) => Promise<number>;
    /** Places in the pool's line the request is told before it gets its browser. */
    queue?: number[];
  },
) {
  let frameSink: ((frame: unknown) => void | Promise<void>) | null = null;
  const state = { closed: false, reason: null as SessionCloseReason | null, url: 'about:blank' };
  const end = (reason: SessionCloseReason) => {
    if (state.closed) return;
    state.closed = true;
    state.reason = reason;
    options.onClose?.(reason);
  };
  options.signal?.addEventListener('abort', () => end('aborted'), { once: true });
  const session = {
    get closed() {
      return state.closed;
    },
    get url() {
      return state.url;
    },
    viewport: options.viewport ?? { width: 1280, height: 800 },
    navigate: vi.fn(async (url: string) => {
      const status = behaviour.navigate ? await behaviour.navigate(url) : 200;
      state.url = url;
      return { requested: url, url, status };
    }),
    startScreencast: vi.fn(async (sink: (frame: unknown) => void | Promise<void>) => {
      frameSink = sink;
    }),
    stopScreencast: vi.fn(async () => {
      frameSink = null;
    }),
    pointer: vi.fn(async (_event: unknown) => {}),
    wheel: vi.fn(async (_event: unknown) => {}),
    key: vi.fn(async (_event: unknown) => {}),
    screenshot: vi.fn(async () => ({ data: Buffer.from('shot'), width: 854, height: 480 })),
    close: vi.fn(async () => end('closed')),
  };
  return {
    session,
    state,
    crash: () => end('crashed'),
    frame: (text: string) =>
      frameSink?.({
        data: Buffer.from(text),
        width: 854,
        height: 480,
        viewport: LIVE_VIEWPORT,
        timestamp: 1_700_000_000_000,
      }),
    get casting() {
      return frameSink !== null;
    },
  };
}

type Fake = ReturnType<typeof fakeSession>;

function setup(
  overrides: Partial<ConversationDeps['config']> = {},
  behaviour: Parameters<typeof fakeSession>[1] = {},
) {
  const sessions: Fake[] = [];
  const sockets = new Map<string, number>([
    ['alice', 1],
    ['bob', 1],
  ]);
  const sent: { userId: string; message: ServerMessageInput }[] = [];
  const frames: { userId: string; sessionId: string; frame: string }[] = [];
  const hub = {
    sendFrame: vi.fn((userId: string, sessionId: string, data: { frame: string }) => {
      frames.push({ userId, sessionId, frame: data.frame });
    }),
    sendToUser: vi.fn((userId: string, message: ServerMessageInput) => sent.push({ userId, message })),
    connectionCount: vi.fn((userId?: string) => (userId ? (sockets.get(userId) ?? 0) : 0)),
  };
  const stored: {
    userId: string;
    conversationId: string;
    role: string;
    content: string;
    actions?: unknown;
  }[] = [];
  const store = {
    forSession: vi.fn(async () => undefined),
    create: vi.fn(async (_userId: string, input: { session_id: string }) => ({
      id: `conv-${input.session_id}`,
    })),
    addMessage: vi.fn(
      async (userId: string, conversationId: string, input: { role: string; content: string }) => {
        stored.push({ userId, conversationId, ...input });
      },
    ),
  };
  const turns: { message: string; context?: ChatContext }[] = [];
  let answer: (session: BrowserSession, message: string, context?: ChatContext) => Promise<ChatTurn> = async (
    _session,
    message,
    context,
  ) => {
    const action = {
      line: 'Click link "About"',
      message: 'Clicked the "About" link',
      url: 'https://a.test/about',
    };
    context?.onAction?.(action);
    return { reply: `Did: ${message}. The page now shows About.`, actions: [action], engine: 'fake' };
  };
  const chat: ChatPlanner = {
    engine: 'fake',
    turn: (session, message, context) => {
      turns.push({ message, context });
      return answer(session, message, context);
    },
  };
  const activities = new ActivityRegistry({ browsers: new BrowserBudget(2), log });
  const service = new ConversationService({
    config: {
      maxLiveBrowsersPerUser: 1,
      maxLiveBrowsers: 4,
      conversationGraceMs: 1000,
      conversationIdleMs: 60_000,
      conversationStartUrl: 'https://search.test/',
      stepTimeoutMs: 5000,
      ...overrides,
    },
    activities,
    openSession: vi.fn(async (options: SessionOptions & QueueOptions) => {
      for (const position of behaviour.queue ?? []) options.onQueued?.(position);
      const fake = fakeSession(options, behaviour);
      sessions.push(fake);
      return fake.session as unknown as BrowserSession;
    }),
    chatFor: vi.fn(async () => chat),
    store,
    checkSession: vi.fn(async (_userId: string, sessionId: string) => {
      if (sessionId === 'not-mine') throw new AppError('SESSION_NOT_FOUND');
    }),
    hub,
    log,
    watchMs: 100,
  });
  const replies: ServerMessageInput[] = [];
  const send = (message: ServerMessageInput) => replies.push(message);
  const types = (list: ServerMessageInput[] = replies) => list.map((m) => m.type);
  return {
    service,
    sessions,
    sockets,
    sent,
    frames,
    hub,
    store,
    stored,
    turns,
    activities,
    replies,
    send,
    types,
    setAnswer: (fn: typeof answer) => {
      answer = fn;
    },
  };
}

const start = (
  t: ReturnType<typeof setup>,
  userId: string,
  sessionId: string,
  url = 'https://a.test/',
  video = true,
) => t.service.start(userId, { session_id: sessionId, url, video_streaming: video }, t.send);

describe('ConversationService', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens an 854×480 browser on the URL, says loading then ready, and streams its frames to the user', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await settle();
    expect(t.sessions).toHaveLength(1);
    expect(t.sessions[0].session.navigate).toHaveBeenCalledWith('https://a.test/');
    expect(t.sessions[0].session.viewport).toEqual({ width: 854, height: 480 });
    const statuses = t.replies
      .filter((m) => m.type === 'browser_status')
      .map((m) => (m.data as { status: string }).status);
    expect(statuses).toEqual(['loading', 'ready']);
    expect(t.replies.every((m) => m.session_id === 's1')).toBe(true);
    expect(t.sessions[0].session.startScreencast).toHaveBeenCalledWith(expect.any(Function), {
      maxWidth: 854,
      maxHeight: 480,
      quality: 60,
    });
    void t.sessions[0].frame('jpeg-1');
    expect(t.frames).toEqual([
      {
        userId: 'alice',
        sessionId: 's1',
        frame: `data:image/jpeg;base64,${Buffer.from('jpeg-1').toString('base64')}`,
      },
    ]);
    expect(t.service.liveCount('alice')).toBe(1);
    expect(t.store.create).toHaveBeenCalledWith('alice', {
      session_id: 's1',
      title: 'Chat on a.test',
      url: 'https://a.test/',
    });
  });

  it('while every browser is busy, says loading with its place in line, then ready', async () => {
    const t = setup({}, { queue: [2, 1] });
    await start(t, 'alice', 's1');
    await settle();
    const statuses = t.replies.filter((m) => m.type === 'browser_status').map((m) => m.data);
    expect(statuses).toEqual([
      { status: 'loading' },
      { status: 'loading', message: 'Waiting for a free browser: 2 ahead' },
      { status: 'loading', message: 'Waiting for a free browser: 1 ahead' },
      { status: 'ready' },
    ]);
  });

  it('without video streaming sends no frames and pictures each action instead', async () => {
    const t = setup();
    await start(t, 'alice', 's1', 'https://a.test/', false);
    await settle();
    expect(t.sessions[0].session.startScreencast).not.toHaveBeenCalled();
    t.service.message('alice', { session_id: 's1', message: 'click About' }, t.send).done;
    await settle(10);
    const action = t.replies.find((m) => m.type === 'browser_action');
    expect(action?.data).toMatchObject({
      action: 'Click link "About"',
      video_streaming: false,
      screenshot: `data:image/jpeg;base64,${Buffer.from('shot').toString('base64')}`,
    });
  });

  it('an empty URL opens CONVERSATION_START_URL; an unreachable one is said plainly and the browser stays', async () => {
    const t = setup(
      {},
      {
        navigate: async () => {
          throw new Error('Could not open https://search.test/: net::ERR_TUNNEL_CONNECTION_FAILED');
        },
      },
    );
    await start(t, 'alice', 's1', '');
    await settle();
    expect(t.sessions[0].session.navigate).toHaveBeenCalledWith('https://search.test/');
    const said = t.replies.find((m) => m.type === 'conversation_response');
    expect(said?.data).toHaveProperty(
      'message',
      expect.stringMatching(
        /^The default start page https:\/\/search\.test\/ could not be reached .*give a URL to start from/,
      ),
    );
    expect(t.types()).toContain('browser_status');
    expect(t.service.liveCount('alice')).toBe(1);
    expect(startProblem('https://x.test/', false, 'HTTP 502')).toMatch(/could not be reached \(HTTP 502\)/);
  });

  it('refuses another user’s session before opening anything', async () => {
    const t = setup();
    await expect(start(t, 'alice', 'not-mine')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(t.sessions).toHaveLength(0);
  });

  it('holds at most MAX_LIVE_BROWSERS_PER_USER per user and MAX_LIVE_BROWSERS in all, with a clear refusal', async () => {
    const t = setup({ maxLiveBrowsersPerUser: 1, maxLiveBrowsers: 2 });
    await start(t, 'alice', 's1');
    await expect(start(t, 'alice', 's2')).rejects.toMatchObject({
      code: 'BROWSER_LIMIT_REACHED',
      message: expect.stringContaining('MAX_LIVE_BROWSERS_PER_USER'),
    });
    await start(t, 'bob', 'b1');
    await expect(start(t, 'carol', 'c1')).rejects.toMatchObject({
      code: 'BROWSER_LIMIT_REACHED',
      message: expect.stringContaining('MAX_LIVE_BROWSERS'),
    });
    // Starting the live session again resumes it: no second browser.
    await settle();
    void t.sessions[0].frame('latest');
    t.frames.length = 0;
    await start(t, 'alice', 's1');
    expect(t.sessions).toHaveLength(2);
    expect(t.frames.map((f) => f.sessionId)).toEqual(['s1']);
  });

  it('a chat turn answers browser_action per action, then conversation_response, and stores both sides', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await settle();
    t.replies.length = 0;
    const { done } = t.service.message('alice', { session_id: 's1', message: 'click About' }, t.send);
    // A second message while the first is under way is refused, not queued.
    expect(() => t.service.message('alice', { session_id: 's1', message: 'again' }, t.send)).toThrow(
      /Still working/,
    );
    await done;
    expect(t.types()).toEqual(['browser_action', 'conversation_response']);
    expect(t.replies[0].data).toMatchObject({
      message: 'Clicked the "About" link',
      action: 'Click link "About"',
      url: 'https://a.test/about',
      video_streaming: true,
    });
    expect(t.replies[0].data).not.toHaveProperty('screenshot');
    expect(t.replies[1].data).toMatchObject({
      message: 'Did: click About. The page now shows About.',
      actions: [
        { action: 'Click link "About"', message: 'Clicked the "About" link', url: 'https://a.test/about' },
      ],
      video_streaming: true,
    });
    expect(t.turns[0].context?.signal).toBeInstanceOf(AbortSignal);
    expect(t.stored.map((m) => [m.conversationId, m.role, m.content])).toEqual([
      ['conv-s1', 'user', 'click About'],
      ['conv-s1', 'assistant', 'Did: click About. The page now shows About.'],
    ]);
    expect(t.stored[1].actions).toEqual([
      { action: 'Click link "About"', message: 'Clicked the "About" link', url: 'https://a.test/about' },
    ]);
  });

  it('stores no password typed in the chat: {{PASSWORD}} in the steps, masked in the words, in later turns too', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await settle();
    const lines: Record<string, { line: string; message: string }[]> = {
      'fill the password with Hunter2x': [
        { line: 'Fill "Password" with "Hunter2x"', message: 'Typed "Hunter2x" into "Password"' },
      ],
      'click the PIN field': [{ line: 'Click "PIN"', message: 'Clicked "PIN"' }],
      'type 7391': [{ line: 'Type "7391"', message: 'Typed "7391"' }],
      'was it Hunter2x?': [],
    };
    t.setAnswer(async (_session, message, context) => {
      const actions = (lines[message] ?? []).map((a) => ({ ...a, url: 'https://a.test/login' }));
      for (const action of actions) context?.onAction?.(action);
      return { reply: `Done: ${message}`, actions, engine: 'fake' };
    });
    for (const message of Object.keys(lines))
      await t.service.message('alice', { session_id: 's1', message }, t.send).done;

    // The user's own screen was told what was done, as it was done.
    const told = t.replies.filter((m) => m.type === 'browser_action').map((m) => m.data.action);
    expect(told).toContain('Fill "Password" with "Hunter2x"');
    // The stored conversation shows neither value, anywhere.
    const text = JSON.stringify(t.stored);
    expect(text).not.toContain('Hunter2x');
    expect(text).not.toContain('7391');
    expect(t.stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'fill the password with ••••••••',
      'click the PIN field',
      'type ••••••••',
      'was it ••••••••?',
    ]);
    const stepLines = t.stored.flatMap((m) =>
      ((m.actions ?? []) as { action: string }[]).map((a) => a.action),
    );
    expect(stepLines).toEqual(['Fill "Password" with "{{PASSWORD}}"', 'Click "PIN"', 'Type "{{PASSWORD}}"']);
    // Each user message is stored before its answer.
    expect(t.stored.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('a message with no live browser is refused; a stop aborts the turn under way', async () => {
    const t = setup();
    expect(() => t.service.message('alice', { session_id: 's1', message: 'hi' }, t.send)).toThrow(
      /No live browser/,
    );
    await start(t, 'alice', 's1');
    await settle();
    t.setAnswer(
      (_s, _m, context) =>
        new Promise((_resolve, reject) =>
          context?.signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true }),
        ),
    );
    const { done } = t.service.message('alice', { session_id: 's1', message: 'wait forever' }, t.send);
    await settle();
    t.replies.length = 0;
    await t.service.stop('alice', 's1', t.send);
    await done;
    expect(t.types()).toEqual(['browser_status', 'conversation_stopped']);
    expect(t.sessions[0].state.reason).toBe('aborted');
    expect(t.service.liveCount()).toBe(0);
  });

  it('maps takeover input from the canvas to the page, in order, a waiting move replaced by a newer one', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await settle();
    const { session } = t.sessions[0];
    const canvas = { width: 427, height: 240 };
    await t.service.input('alice', {
      session_id: 's1',
      canvas,
      input: { type: 'pointer', action: 'click', x: 100, y: 50, button: 'left' },
    });
    expect(session.pointer).toHaveBeenLastCalledWith({ type: 'click', x: 200, y: 100, button: 'left' });
    // Outside the canvas: held to the page's edge.
    await t.service.input('alice', {
      session_id: 's1',
      canvas,
      input: { type: 'wheel', x: 900, y: -5, deltaX: 0, deltaY: 120 },
    });
    expect(session.wheel).toHaveBeenLastCalledWith({ x: 853, y: 0, deltaX: 0, deltaY: 120 });
    await t.service.input('alice', {
      session_id: 's1',
      canvas,
      input: { type: 'key', action: 'press', key: 'Enter' },
    });
    expect(session.key).toHaveBeenLastCalledWith({ type: 'press', key: 'Enter' });

    // Moves while a click is still being sent: only the last one is sent after it.
    let release!: () => void;
    session.pointer.mockImplementationOnce(() => new Promise<void>((resolve) => (release = resolve)));
    const click = t.service.input('alice', {
      session_id: 's1',
      canvas,
      input: { type: 'pointer', action: 'down', x: 10, y: 10, button: 'left' },
    });
    const moves = [1, 2, 3].map((i) =>
      t.service.input('alice', {
        session_id: 's1',
        canvas,
        input: { type: 'pointer', action: 'move', x: 10 * i, y: 10 * i, button: 'left' },
      }),
    );
    await settle();
    release();
    await Promise.all([click, ...moves]);
    const calls = session.pointer.mock.calls.map((c) => c[0]);
    expect(calls.slice(-2)).toEqual([
      { type: 'down', x: 20, y: 20, button: 'left' },
      { type: 'move', x: 60, y: 60 },
    ]);
    await expect(
      t.service.input('bob', { session_id: 's1', canvas, input: { type: 'key', action: 'press', key: 'a' } }),
    ).rejects.toThrow(/No live browser/);
  });

  it('stop closes only the caller’s browser and always answers conversation_stopped', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await start(t, 'bob', 'b1');
    await settle();
    t.replies.length = 0;
    // Bob names Alice's session: nothing of Alice's is touched.
    await t.service.stop('bob', 's1', t.send);
    expect(t.service.liveCount('alice')).toBe(1);
    expect(t.sessions[0].state.closed).toBe(false);
    expect(t.types()).toEqual(['conversation_stopped']);
    await t.service.stop('alice', 's1', t.send);
    expect(t.sessions[0].state.closed).toBe(true);
    expect(t.service.liveCount('alice')).toBe(0);
    expect(t.service.liveCount('bob')).toBe(1);
    // The browser's slot in the user's budget is free again.
    expect(t.activities.list('alice')).toEqual([]);
  });

  it('cleanup_orphaned_sessions closes every live browser of that user only', async () => {
    const t = setup({ maxLiveBrowsersPerUser: 2 });
    await start(t, 'alice', 's1');
    await start(t, 'alice', 's2');
    await start(t, 'bob', 'b1');
    await settle();
    expect(await t.service.cleanupOrphans('alice', t.send)).toBe(2);
    expect(t.service.liveSessions('alice')).toEqual([]);
    expect(t.service.liveSessions('bob')).toEqual(['b1']);
  });

  it('a browser that crashes says so and leaves', async () => {
    const t = setup();
    await start(t, 'alice', 's1');
    await settle();
    t.sessions[0].crash();
    await settle();
    const stopped = t.sent.find((s) => s.message.type === 'conversation_stopped');
    expect(stopped?.message.data).toMatchObject({ message: 'The live browser closed (crashed).' });
    expect(t.service.liveCount()).toBe(0);
  });

  it('refuses takeover input beyond CONVERSATION_MAX_PENDING_INPUTS waiting for the page, naming the limit', async () => {
    const t = setup({ conversationMaxPendingInputs: 3 });
    await start(t, 'alice', 's1');
    await settle();
    const { session } = t.sessions[0];
    let release!: () => void;
    session.key.mockImplementationOnce(() => new Promise<void>((resolve) => (release = resolve)));
    const key = (k: string) =>
      t.service.input('alice', {
        session_id: 's1',
        canvas: { width: 854, height: 480 },
        input: { type: 'key', action: 'press', key: k },
      });
    const waiting = [key('a'), key('b'), key('c')];
    await expect(key('d')).rejects.toThrow(
      'Too many takeover inputs waiting for the page: at most 3 (CONVERSATION_MAX_PENDING_INPUTS); this one was dropped.',
    );
    // A move while the queue is full is refused too; once the page has taken them, input flows again.
    await expect(
      t.service.input('alice', {
        session_id: 's1',
        canvas: { width: 854, height: 480 },
        input: { type: 'pointer', action: 'move', x: 1, y: 1, button: 'left' },
      }),
    ).rejects.toThrow(/CONVERSATION_MAX_PENDING_INPUTS/);
    await settle();
    release();
    await Promise.all(waiting);
    await key('e');
    expect(session.key.mock.calls.map((c) => (c[0] as { key: string }).key)).toEqual(['a', 'b', 'c', 'e']);
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    });

    it('keeps the browser through a dropped socket for the grace period, resumes the stream on reconnect', async () => {
      const t = setup({ conversationGraceMs: 1000 });
      await start(t, 'alice', 's1');
      await vi.advanceTimersByTimeAsync(10);
      void t.sessions[0].frame('before');
      await vi.advanceTimersByTimeAsync(50);
      t.frames.length = 0;
      t.sockets.set('alice', 0);
      await vi.advanceTimersByTimeAsync(800);
      expect(t.service.liveCount('alice')).toBe(1);
      t.sockets.set('alice', 1);
      await vi.advanceTimersByTimeAsync(200);
      // The latest frame again for the tab that came back, and no close.
      expect(t.frames.map((f) => f.frame)).toEqual([
        `data:image/jpeg;base64,${Buffer.from('before').toString('base64')}`,
      ]);
      await vi.advanceTimersByTimeAsync(2000);
      expect(t.service.liveCount('alice')).toBe(1);

      // Gone for longer than the grace period: closed, and said so.
      t.sockets.set('alice', 0);
      await vi.advanceTimersByTimeAsync(1300);
      expect(t.service.liveCount('alice')).toBe(0);
      expect(t.sessions[0].state.closed).toBe(true);
      const stopped = t.sent.find((s) => s.message.type === 'conversation_stopped');
      expect(stopped?.message.data).toMatchObject({
        message: expect.stringContaining('CONVERSATION_GRACE_MS'),
      });
    });

    it('closes a live browser CONVERSATION_MAX_LIFETIME_MS after it started, however busy, and says why', async () => {
      const t = setup({
        conversationIdleMs: 5000,
        conversationMaxLifetimeMs: 20_000,
        conversationGraceMs: 60_000,
      });
      await start(t, 'alice', 's1');
      for (let i = 0; i < 9; i++) {
        await vi.advanceTimersByTimeAsync(2000);
        await t.service.input('alice', {
          session_id: 's1',
          canvas: { width: 854, height: 480 },
          input: { type: 'key', action: 'press', key: 'a' },
        });
      }
      expect(t.service.liveCount('alice')).toBe(1);
      await vi.advanceTimersByTimeAsync(2100);
      expect(t.service.liveCount('alice')).toBe(0);
      expect(t.sessions[0].state.closed).toBe(true);
      const stopped = t.sent.find((s) => s.message.type === 'conversation_stopped');
      expect(stopped?.message.data).toMatchObject({
        message:
          'The live browser was closed: it had been open for 20 s, the longest one may stay open (CONVERSATION_MAX_LIFETIME_MS). Start it again to go on.',
      });
    });

    it('closes a browser with no message nor input for CONVERSATION_IDLE_MS; each message or input restarts the clock', async () => {
      const t = setup({ conversationIdleMs: 5000, conversationGraceMs: 60_000 });
      await start(t, 'alice', 's1');
      await vi.advanceTimersByTimeAsync(4000);
      await t.service.input('alice', {
        session_id: 's1',
        canvas: { width: 854, height: 480 },
        input: { type: 'key', action: 'press', key: 'a' },
      });
      await vi.advanceTimersByTimeAsync(4000);
      expect(t.service.liveCount('alice')).toBe(1);
      await t.service.message('alice', { session_id: 's1', message: 'hello' }, t.send).done;
      await vi.advanceTimersByTimeAsync(4900);
      expect(t.service.liveCount('alice')).toBe(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(t.service.liveCount('alice')).toBe(0);
      const stopped = t.sent.find((s) => s.message.type === 'conversation_stopped');
      expect(stopped?.message.data).toMatchObject({
        message: expect.stringContaining('CONVERSATION_IDLE_MS'),
      });
    });
  });
});
