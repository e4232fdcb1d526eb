export interface QueueOptions {
  /**
   * Told when the request has to wait for a free browser, with its place in the line (1: next to get
   * one), and again each time that place changes. Not called when a browser is free at once.
   */
  onQueued?: (position: number) => void;
}

/** What a user reads while their work waits for a browser (`position` from {@link QueueOptions}). */
export function queuedMessage(position: number): string {
  return `Waiting for a free browser: ${position} ahead`;
}

/** One of a piece of work's requests for a browser, as {@link QueuePositions} follows it. */
export interface QueueRequest {
  /** Pass as the pool's `onQueued`. */
  onQueued: (position: number) => void;
  /** The request has its browser. */
  granted: () => void;
  /** The browser was given back, or never came (idempotent). */
  over: () => void;
}

/**
 * The place in line of work that asks for several browsers (parallel tests, behaviour replays): while
 * it holds none and waits, it reports the best place of its waiting requests, once per change; while
 * it holds one it is under way and says nothing. It also counts the time spent waiting with no browser
 * in hand, which time budgets leave out.
 */
export class QueuePositions {
  private readonly waiting = new Map<symbol, number>();
  private holding = 0;
  private told: number | undefined;
  private since: number | null = null;
  private waited = 0;

  constructor(private readonly report: (position: number) => void = () => {}) {}

  /** Milliseconds spent waiting in line while holding no browser, up to now. */
  get waitedMs(): number {
    return this.waited + (this.since === null ? 0 : Date.now() - this.since);
  }

  request(): QueueRequest {
    const key = Symbol('request');
    let state: 'asking' | 'holding' | 'over' = 'asking';
    return {
      onQueued: (position) => {
        if (state !== 'asking') return;
        this.waiting.set(key, position);
        this.update();
      },
      granted: () => {
        if (state !== 'asking') return;
        state = 'holding';
        this.waiting.delete(key);
        this.holding++;
        this.update();
      },
      over: () => {
        if (state === 'over') return;
        if (state === 'holding') this.holding--;
        state = 'over';
        this.waiting.delete(key);
        this.update();
      },
    };
  }

  /** Asks for a browser with `acquire`, the request granted when it resolves (its `over` is the caller's). */
  async acquire<T>(
    acquire: (request: QueueRequest) => Promise<T>,
  ): Promise<{ value: T; request: QueueRequest }> {
    const request = this.request();
    try {
      const value = await acquire(request);
      request.granted();
      return { value, request };
    } catch (error) {
      request.over();
      throw error;
    }
  }

  private update(): void {
    const idle = this.holding === 0 && this.waiting.size > 0;
    if (idle && this.since === null) this.since = Date.now();
    if (!idle && this.since !== null) {
      this.waited += Date.now() - this.since;
      this.since = null;
    }
    if (!idle) {
      // Told again from scratch the next time the work is left waiting with nothing in hand.
      this.told = undefined;
      return;
    }
    const best = Math.min(...this.waiting.values());
    if (best === this.told) return;
    this.told = best;
    this.report(best);
  }
}
