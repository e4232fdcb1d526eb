import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Live } from './live-browsers';
import { LiveTimers } from './timers';

/** Only the fields the clocks read and write; the rest of a live browser is not theirs. */
function liveOf(userId = 'alice'): Live {
  return {
    userId,
    sessionId: 's1',
    turn: null,
    closing: null,
    graceTimer: null,
    idleTimer: null,
    lifeTimer: null,
  } as unknown as Live;
}

function timersWith(config: { conversationIdleMs?: number; conversationGraceMs?: number; life?: number }) {
  const ended: string[] = [];
  const sockets = { alice: 0 };
  const timers = new LiveTimers({
    config: {
      conversationIdleMs: config.conversationIdleMs ?? 0,
      conversationGraceMs: config.conversationGraceMs ?? 1000,
      conversationMaxLifetimeMs: config.life ?? 0,
      maxLiveBrowsersPerUser: 1,
      maxLiveBrowsers: 1,
    },
    hub: { connectionCount: (userId?: string) => (userId === 'alice' ? sockets.alice : 0) },
    end: async (_live, why) => {
      ended.push(why);
    },
  });
  return { timers, ended, sockets };
}

describe('LiveTimers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('idle: says minutes when whole, and waits while a turn is under way', async () => {
    const { timers, ended } = timersWith({ conversationIdleMs: 600_000 });
    const live = liveOf();
    timers.touch(live);
    live.turn = new AbortController();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(ended).toEqual([]);
    live.turn = null;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(ended).toEqual([
      'The live browser was closed after 10 min without a message (CONVERSATION_IDLE_MS).',
    ]);
  });

  it('idle 0 never closes; clear stops every clock', async () => {
    const { timers, ended } = timersWith({ conversationIdleMs: 0, life: 5000 });
    const live = liveOf();
    timers.touch(live);
    timers.limitLifetime(live);
    timers.startGrace(live);
    expect(live.idleTimer).toBeNull();
    timers.clear(live);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ended).toEqual([]);
  });

  it('grace: closes with no socket open, says fractional seconds, and closes nothing when one came back', async () => {
    const { timers, ended, sockets } = timersWith({ conversationGraceMs: 1500 });
    const live = liveOf();
    timers.startGrace(live);
    sockets.alice = 1;
    await vi.advanceTimersByTimeAsync(1500);
    expect(ended).toEqual([]);
    expect(live.graceTimer).toBeNull();
    sockets.alice = 0;
    timers.startGrace(live);
    // A second start while it runs does not push the close further away.
    await vi.advanceTimersByTimeAsync(1000);
    timers.startGrace(live);
    await vi.advanceTimersByTimeAsync(500);
    expect(ended).toEqual([
      'The live browser was closed: no tab watched it for 1.5 s (CONVERSATION_GRACE_MS).',
    ]);
  });
});
