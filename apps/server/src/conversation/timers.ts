import type { Config } from '../config';
import type { UserChannel } from '../realtime/user-channel';
import { type LimitsConfig, maxLifetimeMs } from './limits';
import type { Live } from './live-browsers';

export interface TimerDeps {
  config: Pick<Config, 'conversationGraceMs' | 'conversationIdleMs'> & LimitsConfig;
  /** A grace period that ends with a socket of the user open again closes nothing. */
  hub: Pick<UserChannel, 'connectionCount'>;
  /** Closes the live browser, saying why (the service's one way to close). */
  end: (live: Live, why: string) => Promise<void>;
}

/**
 * The clocks that close a live browser nobody uses: idle (no message nor input for
 * CONVERSATION_IDLE_MS), grace (no socket of the user for CONVERSATION_GRACE_MS) and lifetime
 * (CONVERSATION_MAX_LIFETIME_MS from the start, whatever the input). Each close says why.
 */
export class LiveTimers {
  constructor(private readonly deps: TimerDeps) {}

  /** A message or an input: the idle clock (CONVERSATION_IDLE_MS) starts again. */
  touch(live: Live): void {
    if (live.idleTimer) clearTimeout(live.idleTimer);
    live.idleTimer = null;
    const idle = this.deps.config.conversationIdleMs;
    if (!(idle > 0) || live.closing) return;
    live.idleTimer = setTimeout(() => {
      live.idleTimer = null;
      // A turn that takes long is not idleness.
      if (live.turn) return this.touch(live);
      void this.deps.end(
        live,
        `The live browser was closed after ${seconds(idle)} without a message (CONVERSATION_IDLE_MS).`,
      );
    }, idle);
    live.idleTimer.unref();
  }

  /** No socket of the user open: the grace period starts, unless it runs already. */
  startGrace(live: Live): void {
    if (live.graceTimer) return;
    const grace = this.deps.config.conversationGraceMs;
    live.graceTimer = setTimeout(() => {
      live.graceTimer = null;
      if (this.deps.hub.connectionCount(live.userId)) return;
      void this.deps.end(
        live,
        `The live browser was closed: no tab watched it for ${seconds(grace)} (CONVERSATION_GRACE_MS).`,
      );
    }, grace);
    live.graceTimer.unref();
  }

  /** A socket of the user is open again. */
  cancelGrace(live: Live): void {
    if (live.graceTimer) clearTimeout(live.graceTimer);
    live.graceTimer = null;
  }

  /**
   * Every input restarts the idle clock, so a user (or a script) could otherwise hold a live browser,
   * one of the server's few, for ever: it closes CONVERSATION_MAX_LIFETIME_MS after it started.
   */
  limitLifetime(live: Live): void {
    const lifetime = maxLifetimeMs(this.deps.config);
    if (!(lifetime > 0)) return;
    live.lifeTimer = setTimeout(() => {
      live.lifeTimer = null;
      void this.deps.end(
        live,
        `The live browser was closed: it had been open for ${seconds(lifetime)}, the longest one may stay open (CONVERSATION_MAX_LIFETIME_MS). Start it again to go on.`,
      );
    }, lifetime);
    live.lifeTimer.unref();
  }

  /** The live browser closes: none of its clocks may fire any more. */
  clear(live: Live): void {
    for (const timer of [live.graceTimer, live.idleTimer, live.lifeTimer]) if (timer) clearTimeout(timer);
  }
}

function seconds(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
