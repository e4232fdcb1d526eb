import type { ChatAction, ChatPlanner } from '@argus/ai';
import {
  AbortedError,
  type BrowserSession,
  type QueueOptions,
  queuedMessage,
  type ScreencastFrame,
  type SessionCloseReason,
  type SessionOptions,
} from '@argus/engine';
import type { ClientMessageOf, ConversationAction, ServerMessageInput } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Activity, ActivityRegistry } from '../activity/activity-registry';
import type { Config } from '../config';
import { AppError } from '../errors';
import { addressed, type Unaddressed, type UserChannel } from '../realtime/user-channel';

type Send = (message: ServerMessageInput) => void;
type Emit = (message: Unaddressed) => void;

/** The conversational screen's video canvas (spec §2): the live browser's viewport is this size, so frames fill it. */
export const LIVE_VIEWPORT = { width: 854, height: 480 } as const;
/** JPEG quality of the screencast. */
const FRAME_QUALITY = 60;
/** JPEG quality of a `browser_action`'s picture when no video streams. */
const ACTION_SHOT_QUALITY = 50;
/** CONVERSATION_MAX_LIFETIME_MS when the caller gives none (config.ts has the same default). */
const DEFAULT_MAX_LIFETIME_MS = 3_600_000;
/** CONVERSATION_MAX_PENDING_INPUTS when the caller gives none (config.ts has the same default). */
const DEFAULT_MAX_PENDING_INPUTS = 64;

/** Where conversations and their messages are kept (the conversations repository). */
export interface ConversationStore {
  forSession(userId: string, sessionId: string): Promise<{ id: string } | undefined>;
  create(
    userId: string,
    input: { session_id: string; title: string; url: string | null },
  ): Promise<{ id: string }>;
  addMessage(
    userId: string,
    conversationId: string,
    input: { role: string; content: string; actions?: ConversationAction[] },
  ): Promise<unknown>;
}

/** The chat planner a user's turn runs on (their Settings' model, the server's AI_*, or the built-in one). */
export type ChatResolver = (userId: string, refs: { session_id: string }) => Promise<ChatPlanner>;

export interface ConversationDeps {
  config: Pick<
    Config,
    | 'maxLiveBrowsersPerUser'
    | 'maxLiveBrowsers'
    | 'conversationGraceMs'
    | 'conversationIdleMs'
    | 'conversationStartUrl'
    | 'stepTimeoutMs'
  > &
    Partial<Pick<Config, 'conversationMaxLifetimeMs' | 'conversationMaxPendingInputs'>>;
  /** Live browsers begin there, taking one of the user's MAX_BROWSERS_PER_USER. */
  activities: ActivityRegistry;
  /** The browser pool's `openSession` (its `onQueued` says the live browser's place in line). */
  openSession: (options: SessionOptions & QueueOptions) => Promise<BrowserSession>;
  chatFor: ChatResolver;
  store: ConversationStore;
  /** Refuses a `session_id` that is not the user's (SESSION_NOT_FOUND). */
  checkSession: (userId: string, sessionId: string) => Promise<void>;
  /** The user's sockets (the socket layer's hub, built before the services). */
  hub: UserChannel;
  log: FastifyBaseLogger;
  /** How often a live browser counts its user's sockets. @default min(1000, CONVERSATION_GRACE_MS / 4) */
  watchMs?: number;
}

type FrameData = { frame: string; timestamp: number };

/** One live browser: a user's conversational session, from start_conversation to its close. */
interface Live {
  readonly userId: string;
  readonly sessionId: string;
  readonly startUrl: string;
  /** Whether frames are sent (start_conversation's video_streaming). */
  streaming: boolean;
  activity: Activity | null;
  session: BrowserSession | null;
  /** Settles with the session once it is open (null when it could not be opened). */
  opened: Promise<BrowserSession | null>;
  /** The stored conversation's id (null when it could not be stored). */
  conversation: Promise<string | null>;
  /** The newest frame, sent again to a tab that comes back. */
  lastFrame: FrameData | null;
  /** The page's URL as the user was last told it (by a chat turn's actions or a navigation notice). */
  toldUrl: string | null;
  casting: boolean;
  /** Whether a socket of the user was open when last counted. */
  watched: boolean;
  graceTimer: ReturnType<typeof setTimeout> | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** CONVERSATION_MAX_LIFETIME_MS from the start: input resets the idle clock, never this one. */
  lifeTimer: ReturnType<typeof setTimeout> | null;
  watchTimer: ReturnType<typeof setInterval> | null;
  /** The chat turn under way, if any. */
  turn: AbortController | null;
  /** Takeover input, one event after another. */
  inputs: Promise<void>;
  /** Inputs queued or being sent (a replaced move is not counted again): at most CONVERSATION_MAX_PENDING_INPUTS. */
  pendingInputs: number;
  /** A pointer move waiting its turn: a later move replaces its point. */
  pendingMove: { x: number; y: number; done: Promise<void> } | null;
  closing: Promise<void> | null;
}

const keyOf = (userId: string, sessionId: string) => `${userId}\n${sessionId}`;
const now = () => new Date().toISOString();
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Conversational mode's live browsers: one isolated browser session per user and conversational
 * session, its screencast streamed as `video_frame`s through the hub (latest wins, no backlog), chat
 * turns carried out by the user's chat planner (`browser_action` per action, then
 * `conversation_response`), takeover input mapped from the canvas to the page, and the lifetime rules:
 * stop and clean-up, a grace period after the user's last socket drops, an idle timeout, and the
 * limits of live browsers per user and per server. Each turn is stored with its conversation.
 */
export class ConversationService {
  private readonly live = new Map<string, Live>();
  private readonly hub: UserChannel;

  constructor(private readonly deps: ConversationDeps) {
    this.hub = deps.hub;
  }

  /** Live browsers open or opening: of one user, or of the whole server. */
  liveCount(userId?: string): number {
    let n = 0;
    for (const live of this.live.values()) if (!live.closing && (!userId || live.userId === userId)) n++;
    return n;
  }

  /** The user's live conversational sessions. */
  liveSessions(userId: string): string[] {
    return [...this.live.values()].filter((l) => l.userId === userId && !l.closing).map((l) => l.sessionId);
  }

  /**
   * `start_conversation`: opens a live browser on `url` (empty: CONVERSATION_START_URL) for the user's
   * session, or resumes the one already live for it (a reconnected tab). Refusals (another user's
   * session, the limits) are thrown before anything starts; the browser opens in the background.
   */
  async start(
    userId: string,
    data: ClientMessageOf<'start_conversation'>['data'],
    send: Send,
  ): Promise<void> {
    const sessionId = data.session_id;
    if (!sessionId) throw new AppError('BAD_REQUEST', 'A conversation needs a session_id.');
    await this.deps.checkSession(userId, sessionId);
    const emit = addressed(send, sessionId);
    const existing = this.live.get(keyOf(userId, sessionId));
    if (existing && !existing.closing) {
      this.resume(existing, data.video_streaming, emit);
      return;
    }
    const { config } = this.deps;
    const mine = this.liveCount(userId);
    if (mine >= config.maxLiveBrowsersPerUser) {
      const n = config.maxLiveBrowsersPerUser;
      throw new AppError(
        'BROWSER_LIMIT_REACHED',
        `You already have ${n === 1 ? 'a live browser' : `${n} live browsers`} open, the most you may have at once ` +
          '(MAX_LIVE_BROWSERS_PER_USER). Stop it (the red dot above the video) before starting another.',
      );
    }
    if (this.liveCount() >= config.maxLiveBrowsers) {
      throw new AppError(
        'BROWSER_LIMIT_REACHED',
        `All ${config.maxLiveBrowsers} live browsers this server runs at once are in use (MAX_LIVE_BROWSERS). ` +
          'Try again in a few minutes.',
      );
    }
    const defaulted = !data.url;
    const url = data.url || config.conversationStartUrl;
    let opened!: (session: BrowserSession | null) => void;
    const live: Live = {
      userId,
      sessionId,
      startUrl: url,
      streaming: data.video_streaming,
      activity: null,
      session: null,
      opened: new Promise((resolve) => {
        opened = resolve;
      }),
      conversation: this.conversationFor(userId, sessionId, url),
      lastFrame: null,
      toldUrl: null,
      casting: false,
      watched: true,
      graceTimer: null,
      idleTimer: null,
      lifeTimer: null,
      watchTimer: null,
      turn: null,
      inputs: Promise.resolve(),
      pendingInputs: 0,
      pendingMove: null,
      closing: null,
    };
    const key = keyOf(userId, sessionId);
    this.live.set(key, live);
    this.limitLifetime(live);
    try {
      live.activity = this.deps.activities.begin(
        { userId, feature: 'conversational', kind: 'live', sessionId, browsers: 1, progress: null },
        (activity) => this.run(live, activity, { url, defaulted, emit, opened }),
      );
    } catch (error) {
      this.live.delete(key);
      if (live.lifeTimer) clearTimeout(live.lifeTimer);
      opened(null);
      throw error;
    }
  }

  /** A start for a session that is live already: its status and latest frame again, streaming as asked now. */
  private resume(live: Live, streaming: boolean, emit: Emit): void {
    live.streaming = streaming;
    this.touch(live);
    emit({ type: 'browser_status', data: { status: live.session ? 'ready' : 'loading' } });
    const session = live.session;
    if (session && streaming && !live.casting) void this.startCast(live, session);
    if (session && !streaming && live.casting) {
      live.casting = false;
      session.stopScreencast().catch(() => {});
    }
    if (streaming && live.lastFrame) this.hub.sendFrame(live.userId, live.sessionId, live.lastFrame);
  }

  /** The live browser's life: open, stream, load the start page, then wait for its close. */
  private async run(
    live: Live,
    activity: Activity,
    start: { url: string; defaulted: boolean; emit: Emit; opened: (s: BrowserSession | null) => void },
  ): Promise<void> {
    const { emit } = start;
    emit({ type: 'browser_status', data: { status: 'loading' } });
    let ended!: (reason: SessionCloseReason) => void;
    const closed = new Promise<SessionCloseReason>((resolve) => {
      ended = resolve;
    });
    let session: BrowserSession;
    try {
      session = await this.deps.openSession({
        viewport: LIVE_VIEWPORT,
        signal: activity.signal,
        // The service keeps its own idle rule (no message, no input): watching alone is no operation.
        idleTimeoutMs: 0,
        stepTimeoutMs: this.deps.config.stepTimeoutMs,
        onClose: (reason) => ended(reason),
        // Every browser of the server busy: the user reads its place in line while it loads.
        onQueued: (position) =>
          emit({ type: 'browser_status', data: { status: 'loading', message: queuedMessage(position) } }),
      });
    } catch (error) {
      start.opened(null);
      if (activity.signal.aborted) return;
      this.deps.log.error({ err: error }, 'could not open a live browser');
      emit({ type: 'browser_status', data: { status: 'error' } });
      void this.end(live, `The live browser could not be started: ${errorText(error)}`, 'error');
      return;
    }
    live.session = session;
    start.opened(session);
    if (live.streaming) await this.startCast(live, session);
    this.watch(live);
    this.touch(live);
    try {
      const result = await session.navigate(start.url);
      if (!activity.signal.aborted) emit({ type: 'browser_status', data: { status: 'ready' } });
      if (result.status >= 400)
        this.say(live, emit, startProblem(start.url, start.defaulted, `HTTP ${result.status}`));
    } catch (error) {
      if (!activity.signal.aborted && !session.closed) {
        // The browser is there (the chat can still take it elsewhere); the user is told why the page is not.
        emit({ type: 'browser_status', data: { status: 'ready' } });
        this.say(live, emit, startProblem(start.url, start.defaulted, errorText(error)));
      }
    }
    const reason = await closed;
    // Closed underneath (a crash, the browser gone, the pool closing): said once, like a stop.
    if (reason !== 'aborted' && reason !== 'closed') {
      void this.end(live, `The live browser closed (${reason}).`, 'error');
    }
  }

  /** Starts streaming the session's frames to the user's sockets. */
  private async startCast(live: Live, session: BrowserSession): Promise<void> {
    live.casting = true;
    try {
      await session.startScreencast((frame) => this.onFrame(live, frame), {
        maxWidth: LIVE_VIEWPORT.width,
        maxHeight: LIVE_VIEWPORT.height,
        quality: FRAME_QUALITY,
      });
    } catch (error) {
      live.casting = false;
      if (!session.closed) this.deps.log.warn({ err: error }, 'could not start the screencast');
    }
  }

  /**
   * One frame: kept as the latest and sent through the hub (which never queues frames behind a slow
   * socket: a newer frame replaces one still waiting). The browser gets its acknowledgement when this
   * settles, so it paints at the page's own pace (measured: the same fps as raw CDP, `npm run bench:video`).
   */
  private async onFrame(live: Live, frame: ScreencastFrame): Promise<void> {
    if (live.closing || !live.streaming) return;
    const data: FrameData = {
      frame: `data:image/jpeg;base64,${frame.data.toString('base64')}`,
      timestamp: frame.timestamp,
    };
    live.lastFrame = data;
    this.hub.sendFrame(live.userId, live.sessionId, data);
    this.noticeNavigation(live);
  }

  /**
   * A page that changed outside a chat turn (a takeover click, a redirect, the page's own script) is
   * told as a `browser_action` 'navigated', so the screen's URL bar and the chat follow it. Inside a
   * turn the turn's own actions say where the page went.
   */
  private noticeNavigation(live: Live): void {
    const session = live.session;
    if (!session || session.closed || live.closing || live.turn) return;
    const url = session.url;
    if (!/^https?:/.test(url)) return;
    if (live.toldUrl === null) {
      live.toldUrl = url;
      return;
    }
    if (url === live.toldUrl) return;
    live.toldUrl = url;
    this.hub.sendToUser(live.userId, {
      type: 'browser_action',
      session_id: live.sessionId,
      data: {
        action: 'navigated',
        message: `The page changed to ${url}`,
        url,
        video_streaming: live.streaming,
      },
    });
  }

  /** Counts the user's sockets every little while: none for CONVERSATION_GRACE_MS closes the browser. */
  private watch(live: Live): void {
    const grace = this.deps.config.conversationGraceMs;
    const every = this.deps.watchMs ?? Math.max(50, Math.min(1000, Math.floor(grace / 4)));
    live.watchTimer = setInterval(() => this.checkViewers(live), every);
    live.watchTimer.unref();
  }

  private checkViewers(live: Live): void {
    if (live.closing) return;
    const watched = this.hub.connectionCount(live.userId) > 0;
    if (!watched && !live.graceTimer) {
      const grace = this.deps.config.conversationGraceMs;
      live.graceTimer = setTimeout(() => {
        live.graceTimer = null;
        if (this.hub.connectionCount(live.userId)) return;
        void this.end(
          live,
          `The live browser was closed: no tab watched it for ${seconds(grace)} (CONVERSATION_GRACE_MS).`,
        );
      }, grace);
      live.graceTimer.unref();
    }
    if (watched) {
      if (live.graceTimer) clearTimeout(live.graceTimer);
      live.graceTimer = null;
      // A tab that comes back gets the picture at once, not at the page's next repaint.
      if (!live.watched && live.streaming && live.lastFrame) {
        this.hub.sendFrame(live.userId, live.sessionId, live.lastFrame);
      }
    }
    live.watched = watched;
  }

  /**
   * Every input restarts the idle clock, so a user (or a script) could otherwise hold a live browser,
   * one of the server's few, for ever: it closes CONVERSATION_MAX_LIFETIME_MS after it started.
   */
  private limitLifetime(live: Live): void {
    const lifetime = this.deps.config.conversationMaxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS;
    if (!(lifetime > 0)) return;
    live.lifeTimer = setTimeout(() => {
      live.lifeTimer = null;
      void this.end(
        live,
        `The live browser was closed: it had been open for ${seconds(lifetime)}, the longest one may stay open (CONVERSATION_MAX_LIFETIME_MS). Start it again to go on.`,
      );
    }, lifetime);
    live.lifeTimer.unref();
  }

  /** A message or an input: the idle clock (CONVERSATION_IDLE_MS) starts again. */
  private touch(live: Live): void {
    if (live.idleTimer) clearTimeout(live.idleTimer);
    live.idleTimer = null;
    const idle = this.deps.config.conversationIdleMs;
    if (!(idle > 0) || live.closing) return;
    live.idleTimer = setTimeout(() => {
      live.idleTimer = null;
      // A turn that takes long is not idleness.
      if (live.turn) return this.touch(live);
      void this.end(
        live,
        `The live browser was closed after ${seconds(idle)} without a message (CONVERSATION_IDLE_MS).`,
      );
    }, idle);
    live.idleTimer.unref();
  }

  /** Says something in the chat (and stores it), outside a turn. */
  private say(live: Live, emit: Emit, message: string): void {
    emit({
      type: 'conversation_response',
      data: { message, timestamp: now(), actions: [], video_streaming: live.streaming },
    });
    void this.store(live, { role: 'assistant', content: message });
  }

  /**
   * `conversation_message`: one chat turn in the session's live browser. Refused at once when nothing
   * is live for the session or a turn is still under way; otherwise it runs in the background
   * (`done`), sending a `browser_action` per action and then the `conversation_response`.
   */
  message(
    userId: string,
    data: ClientMessageOf<'conversation_message'>['data'],
    send: Send,
  ): { done: Promise<void> } {
    const live = this.live.get(keyOf(userId, data.session_id));
    if (!live || live.closing) {
      throw new AppError(
        'BAD_REQUEST',
        'No live browser is open for this conversation: start one (Start Video), then send your message.',
      );
    }
    if (live.turn) {
      throw new AppError(
        'BAD_REQUEST',
        'Still working on your previous message: wait for its answer, then send this one.',
      );
    }
    const turn = new AbortController();
    live.turn = turn;
    this.touch(live);
    const emit = addressed(send, live.sessionId);
    const done = this.runTurn(live, data.message, turn.signal, emit).finally(() => {
      if (live.turn === turn) live.turn = null;
      // What the turn did it said itself: only later changes are told as navigations.
      if (live.session && !live.session.closed) live.toldUrl = live.session.url;
      this.touch(live);
    });
    return { done };
  }

  private async runTurn(live: Live, message: string, signal: AbortSignal, emit: Emit): Promise<void> {
    await this.store(live, { role: 'user', content: message });
    const session = await live.opened;
    if (!session || live.closing || signal.aborted) return;
    let announced = Promise.resolve();
    try {
      const chat = await this.deps.chatFor(live.userId, { session_id: live.sessionId });
      const turn = await chat.turn(session, message, {
        signal,
        actionTimeoutMs: this.deps.config.stepTimeoutMs,
        onAction: (action) => {
          announced = announced.then(() => this.announce(live, session, action, emit));
        },
      });
      await announced;
      if (live.closing || signal.aborted) return;
      const actions = turn.actions.map(toRecord);
      emit({
        type: 'conversation_response',
        data: { message: turn.reply, timestamp: now(), actions, video_streaming: live.streaming },
      });
      await this.store(live, { role: 'assistant', content: turn.reply, actions });
    } catch (error) {
      await announced;
      if (live.closing || signal.aborted || error instanceof AbortedError) return;
      this.deps.log.error({ err: error }, 'a chat turn failed');
      this.say(live, emit, `I could not carry that out: ${errorText(error)}`);
    }
  }

  /** A `browser_action`; with a small picture of the page when no video shows it. */
  private async announce(live: Live, session: BrowserSession, action: ChatAction, emit: Emit): Promise<void> {
    let screenshot: string | undefined;
    if (!live.streaming && !session.closed) {
      try {
        const shot = await session.screenshot({ quality: ACTION_SHOT_QUALITY });
        screenshot = `data:image/jpeg;base64,${shot.data.toString('base64')}`;
      } catch {
        // the action is told without its picture
      }
    }
    if (live.closing) return;
    emit({
      type: 'browser_action',
      data: {
        message: action.message,
        action: action.line,
        url: action.url,
        ...(screenshot ? { screenshot } : {}),
        video_streaming: live.streaming,
      },
    });
  }

  /**
   * `browser_input` (takeover): a pointer, wheel or key event on the canvas, mapped to the page's
   * viewport (the ratio of the viewport to the canvas the client drew the frame at) and sent to the
   * page through CDP input events, in the order they came. A pointer move waiting its turn is replaced
   * by a newer one.
   */
  async input(userId: string, data: ClientMessageOf<'browser_input'>['data']): Promise<void> {
    const live = this.live.get(keyOf(userId, data.session_id));
    const session = live?.session;
    if (!live || live.closing || !session || session.closed) {
      throw new AppError('BAD_REQUEST', 'No live browser is open for this conversation: start one first.');
    }
    const { input, canvas } = data;
    // A move replaces the one waiting, if any, so only inputs that add to the queue are counted.
    const queues = !(input.type === 'pointer' && input.action === 'move' && live.pendingMove);
    const most = this.deps.config.conversationMaxPendingInputs ?? DEFAULT_MAX_PENDING_INPUTS;
    if (queues && live.pendingInputs >= most) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many takeover inputs waiting for the page: at most ${most} (CONVERSATION_MAX_PENDING_INPUTS); this one was dropped.`,
      );
    }
    this.touch(live);
    const viewport = session.viewport;
    const at = (x: number, y: number) => ({
      x: clamp((x * viewport.width) / canvas.width, 0, viewport.width - 1),
      y: clamp((y * viewport.height) / canvas.height, 0, viewport.height - 1),
    });
    let work: Promise<void>;
    if (input.type === 'pointer' && input.action === 'move') {
      const point = at(input.x, input.y);
      if (live.pendingMove) {
        live.pendingMove.x = point.x;
        live.pendingMove.y = point.y;
        work = live.pendingMove.done;
      } else {
        const move = { ...point, done: Promise.resolve() };
        move.done = this.queue(live, () => {
          if (live.pendingMove === move) live.pendingMove = null;
          return session.pointer({ type: 'move', x: move.x, y: move.y });
        });
        live.pendingMove = move;
        work = move.done;
      }
    } else if (input.type === 'pointer') {
      const point = at(input.x, input.y);
      work = this.queue(live, () => session.pointer({ type: input.action, ...point, button: input.button }));
    } else if (input.type === 'wheel') {
      const point = at(input.x, input.y);
      work = this.queue(live, () => session.wheel({ ...point, deltaX: input.deltaX, deltaY: input.deltaY }));
    } else {
      work = this.queue(live, () => session.key({ type: input.action, key: input.key }));
    }
    try {
      await work;
    } catch (error) {
      if (live.closing || session.closed) return;
      throw new AppError('BAD_REQUEST', `That input did not reach the page: ${errorText(error)}`);
    }
  }

  private queue(live: Live, job: () => Promise<void>): Promise<void> {
    live.pendingInputs++;
    const run = live.inputs.then(job).finally(() => {
      live.pendingInputs--;
    });
    live.inputs = run.catch(() => {});
    return run;
  }

  /**
   * `stop_conversation` (also the beacon's): closes the user's live browser of that session (every one
   * of theirs when none is named) and answers `conversation_stopped`, also when nothing was live.
   * Only the caller's own browsers are looked at: another user's session id finds nothing.
   */
  async stop(userId: string, sessionId: string | null, send: Send): Promise<void> {
    const targets = sessionId
      ? [this.live.get(keyOf(userId, sessionId))].filter((l): l is Live => !!l)
      : [...this.live.values()].filter((l) => l.userId === userId);
    if (targets.length === 0) {
      addressed(
        send,
        sessionId,
      )({ type: 'conversation_stopped', data: { message: 'Session stopped', timestamp: now() } });
      return;
    }
    await Promise.all(targets.map((live) => this.end(live, 'Session stopped', 'stopped', send)));
  }

  /** `cleanup_orphaned_sessions`: closes every live browser of the user. */
  async cleanupOrphans(userId: string, send: Send): Promise<number> {
    const targets = [...this.live.values()].filter((l) => l.userId === userId && !l.closing);
    await Promise.all(
      targets.map((live) => this.end(live, 'Closed a live browser left from before', 'stopped', send)),
    );
    return targets.length;
  }

  /** Server shutdown: every live browser closes. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.live.values()].map((live) => this.end(live, 'The server is shutting down')));
  }

  /**
   * Closes a live browser once, whatever asked: timers stop, a turn under way is aborted, the activity
   * (and with it the browser session) ends, and the user's tabs are told `browser_status` and
   * `conversation_stopped` with why.
   */
  private end(live: Live, why: string, status: 'stopped' | 'error' = 'stopped', send?: Send): Promise<void> {
    if (live.closing) return live.closing;
    live.closing = (async () => {
      for (const timer of [live.graceTimer, live.idleTimer, live.lifeTimer]) if (timer) clearTimeout(timer);
      if (live.watchTimer) clearInterval(live.watchTimer);
      live.turn?.abort();
      live.lastFrame = null;
      if (live.activity) await this.deps.activities.stop(live.activity);
      const key = keyOf(live.userId, live.sessionId);
      if (this.live.get(key) === live) this.live.delete(key);
      const to: Send = send ?? ((m) => this.hub.sendToUser(live.userId, m));
      const emit = addressed(to, live.sessionId);
      emit({ type: 'browser_status', data: { status } });
      emit({ type: 'conversation_stopped', data: { message: why, timestamp: now() } });
    })();
    return live.closing;
  }

  /** The conversation a live browser's turns are stored in: the session's latest, else a new one. */
  private async conversationFor(userId: string, sessionId: string, url: string): Promise<string | null> {
    try {
      const found = await this.deps.store.forSession(userId, sessionId);
      if (found) return found.id;
      const created = await this.deps.store.create(userId, {
        session_id: sessionId,
        title: `Chat on ${hostOf(url)}`,
        url,
      });
      return created.id;
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not store the conversation');
      return null;
    }
  }

  private async store(
    live: Live,
    message: { role: string; content: string; actions?: ConversationAction[] },
  ): Promise<void> {
    try {
      const id = await live.conversation;
      if (id) await this.deps.store.addMessage(live.userId, id, message);
    } catch (error) {
      // A message that cannot be stored must not fail the turn that said it.
      this.deps.log.error({ err: error }, 'could not store a conversation message');
    }
  }
}

function toRecord(action: ChatAction): ConversationAction {
  return { action: action.line, message: action.message, url: action.url };
}

function clamp(n: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, n));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Why the start page is not shown, and what the user can do. */
export function startProblem(url: string, defaulted: boolean, reason: string): string {
  const unreachable = /HTTP 50[234]\b|ERR_|Could not open|timed out|refused|ENOTFOUND|EAI_AGAIN/i.test(
    reason,
  );
  if (defaulted) {
    return (
      `The default start page ${url} ${unreachable ? 'could not be reached' : 'did not load'} (${reason}). ` +
      'This server may have no internet access: give a URL to start from, or tell me where to go ' +
      "('go to https://example.com'). CONVERSATION_START_URL sets the default."
    );
  }
  return (
    `${url} ${unreachable ? 'could not be reached' : 'did not load properly'} (${reason}). ` +
    "Tell me another address to go to ('go to https://example.com'), or stop and start again with another URL."
  );
}
