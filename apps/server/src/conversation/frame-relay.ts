import type { BrowserSession, ScreencastFrame } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { UserChannel } from '../realtime/user-channel';
import { type FrameData, LIVE_VIEWPORT, type Live } from './live-browsers';
import type { LiveTimers } from './timers';

/** JPEG quality of the screencast. */
const FRAME_QUALITY = 60;

export interface FrameRelayDeps {
  hub: UserChannel;
  config: Pick<Config, 'conversationGraceMs'>;
  /** How often a live browser counts its user's sockets. @default min(1000, CONVERSATION_GRACE_MS / 4) */
  watchMs?: number;
  /** With no socket of the user open the grace period runs; one open again stops it. */
  timers: Pick<LiveTimers, 'startGrace' | 'cancelGrace'>;
  log: FastifyBaseLogger;
}

/**
 * A live browser's screencast on its way to the user's sockets through the `UserChannel` (latest
 * wins, no backlog), the navigations it shows outside a chat turn, and the watch on the user's sockets
 * (none open: the grace period; a tab that comes back gets the latest frame at once).
 */
export class FrameRelay {
  constructor(private readonly deps: FrameRelayDeps) {}

  /** Starts streaming the session's frames to the user's sockets. */
  async startCast(live: Live, session: BrowserSession): Promise<void> {
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

  /** A tab starts the session again: the stream follows its `streaming` now, and it gets the latest frame. */
  resume(live: Live): void {
    const { session, streaming } = live;
    if (session && streaming && !live.casting) void this.startCast(live, session);
    if (session && !streaming && live.casting) {
      live.casting = false;
      session.stopScreencast().catch(() => {});
    }
    if (streaming && live.lastFrame) this.deps.hub.sendFrame(live.userId, live.sessionId, live.lastFrame);
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
    this.deps.hub.sendFrame(live.userId, live.sessionId, data);
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
    this.deps.hub.sendToUser(live.userId, {
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
  watch(live: Live): void {
    const grace = this.deps.config.conversationGraceMs;
    const every = this.deps.watchMs ?? Math.max(50, Math.min(1000, Math.floor(grace / 4)));
    live.watchTimer = setInterval(() => this.checkViewers(live), every);
    live.watchTimer.unref();
  }

  private checkViewers(live: Live): void {
    if (live.closing) return;
    const watched = this.deps.hub.connectionCount(live.userId) > 0;
    if (!watched) this.deps.timers.startGrace(live);
    if (watched) {
      this.deps.timers.cancelGrace(live);
      // A tab that comes back gets the picture at once, not at the page's next repaint.
      if (!live.watched && live.streaming && live.lastFrame) {
        this.deps.hub.sendFrame(live.userId, live.sessionId, live.lastFrame);
      }
    }
    live.watched = watched;
  }

  /** The live browser closes: no more counting, and no frame kept to send again. */
  stop(live: Live): void {
    if (live.watchTimer) clearInterval(live.watchTimer);
    live.lastFrame = null;
  }
}
