import {
  type BrowserSession,
  type QueueOptions,
  queuedMessage,
  type SessionCloseReason,
  type SessionOptions,
} from '@argus/engine';
import type { ClientMessageOf } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Activity, ActivityRegistry } from '../activity/activity-registry';
import type { Config } from '../config';
import { AppError } from '../errors';
import { addressed, type Send, type UserChannel } from '../realtime/user-channel';
import { type ChatResolver, ChatTurns, startProblem } from './chat-turns';
import type { ConversationFront } from './conversation-front';
import { FrameRelay } from './frame-relay';
import { checkLiveBrowsers } from './limits';
import { type Emit, errorText, LIVE_VIEWPORT, type Live, LiveBrowsers, newLive, now } from './live-browsers';
import { ConversationRecords, type ConversationStore } from './persistence';
import { Takeover } from './takeover';
import { LiveTimers } from './timers';

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

/**
 * Conversational mode's live browsers: one isolated browser session per user and conversational
 * session, its screencast streamed as `video_frame`s through the hub (frame-relay.ts), chat turns
 * carried out by the user's chat planner (chat-turns.ts), takeover input mapped from the canvas to the
 * page (takeover.ts), and the lifetime rules: stop and clean-up (here), the grace, idle and lifetime
 * clocks (timers.ts), and the limits of live browsers per user and per server (limits.ts). Each turn
 * is stored with its conversation (persistence.ts). This class opens and closes live browsers and
 * hands each message to the part that carries it out.
 */
export class ConversationService implements ConversationFront {
  private readonly browsers = new LiveBrowsers();
  private readonly records: ConversationRecords;
  private readonly timers: LiveTimers;
  private readonly relay: FrameRelay;
  private readonly turns: ChatTurns;
  private readonly takeover: Takeover;

  constructor(private readonly deps: ConversationDeps) {
    const { config, hub, log } = deps;
    this.records = new ConversationRecords({ store: deps.store, log });
    this.timers = new LiveTimers({ config, hub, end: (live, why) => this.end(live, why) });
    this.relay = new FrameRelay({ hub, config, watchMs: deps.watchMs, timers: this.timers, log });
    this.turns = new ChatTurns({
      config,
      chatFor: deps.chatFor,
      records: this.records,
      timers: this.timers,
      log,
    });
    this.takeover = new Takeover({ config, timers: this.timers });
  }

  /** Live browsers open or opening: of one user, or of the whole server. */
  liveCount(userId?: string): number {
    return this.browsers.count(userId);
  }

  /** The user's live conversational sessions. */
  liveSessions(userId: string): string[] {
    return this.browsers
      .ofUser(userId)
      .filter((l) => !l.closing)
      .map((l) => l.sessionId);
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
    const existing = this.browsers.get(userId, sessionId);
    if (existing && !existing.closing) {
      this.resume(existing, data.video_streaming, emit);
      return;
    }
    const { config } = this.deps;
    checkLiveBrowsers(config, { mine: this.liveCount(userId), all: this.liveCount() });
    const defaulted = !data.url;
    const url = data.url || config.conversationStartUrl;
    const { live, opened } = newLive({
      userId,
      sessionId,
      startUrl: url,
      streaming: data.video_streaming,
      conversation: this.records.conversationFor(userId, sessionId, url),
    });
    this.browsers.add(live);
    this.timers.limitLifetime(live);
    try {
      live.activity = this.deps.activities.begin(
        { userId, feature: 'conversational', kind: 'live', sessionId, browsers: 1, progress: null },
        (activity) => this.run(live, activity, { url, defaulted, emit, opened }),
      );
    } catch (error) {
      this.browsers.remove(live);
      this.timers.clear(live);
      opened(null);
      throw error;
    }
  }

  /** A start for a session that is live already: its status and latest frame again, streaming as asked now. */
  private resume(live: Live, streaming: boolean, emit: Emit): void {
    live.streaming = streaming;
    this.timers.touch(live);
    emit({ type: 'browser_status', data: { status: live.session ? 'ready' : 'loading' } });
    this.relay.resume(live);
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
    if (live.streaming) await this.relay.startCast(live, session);
    this.relay.watch(live);
    this.timers.touch(live);
    try {
      const result = await session.navigate(start.url);
      if (!activity.signal.aborted) emit({ type: 'browser_status', data: { status: 'ready' } });
      if (result.status >= 400)
        this.turns.say(live, emit, startProblem(start.url, start.defaulted, `HTTP ${result.status}`));
    } catch (error) {
      if (!activity.signal.aborted && !session.closed) {
        // The browser is there (the chat can still take it elsewhere); the user is told why the page is not.
        emit({ type: 'browser_status', data: { status: 'ready' } });
        this.turns.say(live, emit, startProblem(start.url, start.defaulted, errorText(error)));
      }
    }
    const reason = await closed;
    // Closed underneath (a crash, the browser gone, the pool closing): said once, like a stop.
    if (reason !== 'aborted' && reason !== 'closed') {
      void this.end(live, `The live browser closed (${reason}).`, 'error');
    }
  }

  /** Resolves once the session's live browser (if any) has closed and said so (a worker's job lasts that long). */
  async closed(userId: string, sessionId: string): Promise<void> {
    const live = this.browsers.get(userId, sessionId);
    if (!live) return;
    await live.activity?.done.catch(() => undefined);
    if (live.closing) await live.closing;
  }

  /** `conversation_message`: a chat turn in the session's live browser (chat-turns.ts). */
  message(
    userId: string,
    data: ClientMessageOf<'conversation_message'>['data'],
    send: Send,
  ): { done: Promise<void> } {
    return this.turns.begin(this.browsers.get(userId, data.session_id), data.message, send);
  }

  /** `browser_input`: takeover input on the session's live browser (takeover.ts). */
  async input(userId: string, data: ClientMessageOf<'browser_input'>['data']): Promise<void> {
    await this.takeover.input(this.browsers.get(userId, data.session_id), data);
  }

  /**
   * `stop_conversation` (also the beacon's): closes the user's live browser of that session (every one
   * of theirs when none is named) and answers `conversation_stopped`, also when nothing was live.
   * Only the caller's own browsers are looked at: another user's session id finds nothing.
   */
  async stop(userId: string, sessionId: string | null, send: Send): Promise<void> {
    const targets = sessionId
      ? [this.browsers.get(userId, sessionId)].filter((l): l is Live => !!l)
      : this.browsers.ofUser(userId);
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
    const targets = this.browsers.ofUser(userId).filter((l) => !l.closing);
    await Promise.all(
      targets.map((live) => this.end(live, 'Closed a live browser left from before', 'stopped', send)),
    );
    return targets.length;
  }

  /** Server shutdown: every live browser closes. */
  async shutdown(): Promise<void> {
    await Promise.all(this.browsers.all().map((live) => this.end(live, 'The server is shutting down')));
  }

  /**
   * Closes a live browser once, whatever asked: timers stop, a turn under way is aborted, the activity
   * (and with it the browser session) ends, and the user's tabs are told `browser_status` and
   * `conversation_stopped` with why.
   */
  private end(live: Live, why: string, status: 'stopped' | 'error' = 'stopped', send?: Send): Promise<void> {
    if (live.closing) return live.closing;
    live.closing = (async () => {
      this.timers.clear(live);
      this.relay.stop(live);
      live.turn?.abort();
      if (live.activity) await this.deps.activities.stop(live.activity);
      this.browsers.remove(live);
      const to: Send = send ?? ((m) => this.deps.hub.sendToUser(live.userId, m));
      const emit = addressed(to, live.sessionId);
      emit({ type: 'browser_status', data: { status } });
      emit({ type: 'conversation_stopped', data: { message: why, timestamp: now() } });
    })();
    return live.closing;
  }
}
