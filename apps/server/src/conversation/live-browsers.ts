import type { BrowserSession } from '@argus/engine';
import type { Activity } from '../activity/activity-registry';
import type { Unaddressed } from '../realtime/user-channel';

/**
 * The conversational screen's video canvas (docs/PRODUCT.md, Live video): the live browser's viewport
 * is this size, so frames fill it.
 */
export const LIVE_VIEWPORT = { width: 854, height: 480 } as const;

/** Sends a server message addressed to one live browser's session. */
export type Emit = (message: Unaddressed) => void;

export type FrameData = { frame: string; timestamp: number };

/**
 * One live browser: a user's conversational session, from start_conversation to its close. One
 * record shared by the parts of the service; each part keeps to its own fields (noted by each).
 */
export interface Live {
  readonly userId: string;
  readonly sessionId: string;
  readonly startUrl: string;
  /** Whether frames are sent (start_conversation's video_streaming). */
  streaming: boolean;
  activity: Activity | null;
  session: BrowserSession | null;
  /** Settles with the session once it is open (null when it could not be opened). */
  opened: Promise<BrowserSession | null>;
  /** The stored conversation's id (null when it could not be stored): persistence.ts. */
  conversation: Promise<string | null>;
  /** The newest frame, sent again to a tab that comes back: frame-relay.ts. */
  lastFrame: FrameData | null;
  /** The page's URL as the user was last told it (by a chat turn's actions or a navigation notice). */
  toldUrl: string | null;
  casting: boolean;
  /** Whether a socket of the user was open when last counted. */
  watched: boolean;
  /** timers.ts. */
  graceTimer: ReturnType<typeof setTimeout> | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** CONVERSATION_MAX_LIFETIME_MS from the start: input resets the idle clock, never this one. */
  lifeTimer: ReturnType<typeof setTimeout> | null;
  /** Counts the user's sockets: frame-relay.ts. */
  watchTimer: ReturnType<typeof setInterval> | null;
  /** The chat turn under way, if any: chat-turns.ts. */
  turn: AbortController | null;
  /**
   * The step lines of the chat's actions so far, and the values they typed as passwords: what the
   * stored conversation shows of neither (chat-turns.ts, `protectPasswords`).
   */
  passwords: { lines: string[]; typed: Set<string> };
  /** Takeover input, one event after another: takeover.ts. */
  inputs: Promise<void>;
  /** Inputs queued or being sent (a replaced move is not counted again): at most CONVERSATION_MAX_PENDING_INPUTS. */
  pendingInputs: number;
  /** A pointer move waiting its turn: a later move replaces its point. */
  pendingMove: { x: number; y: number; done: Promise<void> } | null;
  closing: Promise<void> | null;
}

/**
 * A live browser as it starts: nothing open, nothing streamed or counted yet, watched (the user's tab
 * just asked for it). `opened` settles its `opened` promise once the session is open, or with null.
 */
export function newLive(
  start: Pick<Live, 'userId' | 'sessionId' | 'startUrl' | 'streaming' | 'conversation'>,
): { live: Live; opened: (session: BrowserSession | null) => void } {
  let opened!: (session: BrowserSession | null) => void;
  const live: Live = {
    ...start,
    activity: null,
    session: null,
    opened: new Promise((resolve) => {
      opened = resolve;
    }),
    lastFrame: null,
    toldUrl: null,
    casting: false,
    watched: true,
    graceTimer: null,
    idleTimer: null,
    lifeTimer: null,
    watchTimer: null,
    turn: null,
    passwords: { lines: [], typed: new Set() },
    inputs: Promise.resolve(),
    pendingInputs: 0,
    pendingMove: null,
    closing: null,
  };
  return { live, opened };
}

export const now = () => new Date().toISOString();
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const keyOf = (userId: string, sessionId: string) => `${userId}\n${sessionId}`;

/**
 * The live browsers open, opening or closing, keyed by user and session: another user's session id
 * finds nothing.
 */
export class LiveBrowsers {
  private readonly live = new Map<string, Live>();

  get(userId: string, sessionId: string): Live | undefined {
    return this.live.get(keyOf(userId, sessionId));
  }

  add(live: Live): void {
    this.live.set(keyOf(live.userId, live.sessionId), live);
  }

  /** Forgets `live`, never a newer browser that took its session's place. */
  remove(live: Live): void {
    const key = keyOf(live.userId, live.sessionId);
    if (this.live.get(key) === live) this.live.delete(key);
  }

  /** Live browsers open or opening (not closing): of one user, or of the whole server. */
  count(userId?: string): number {
    let n = 0;
    for (const live of this.live.values()) if (!live.closing && (!userId || live.userId === userId)) n++;
    return n;
  }

  /** The user's live browsers, closing ones too. */
  ofUser(userId: string): Live[] {
    return [...this.live.values()].filter((l) => l.userId === userId);
  }

  all(): Live[] {
    return [...this.live.values()];
  }
}
