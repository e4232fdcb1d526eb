/**
 * Fixed-window counter per key (an IP, a username). In-process: with several API nodes behind one
 * balancer each node counts alone, which still bounds guessing to N × limit per window.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` is already over its limit, without counting an attempt. */
  blocked(key: string): { blocked: boolean; retryAfterSeconds: number } {
    const entry = this.current(key);
    if (!entry || entry.count < this.limit) return { blocked: false, retryAfterSeconds: 0 };
    return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((entry.resetAt - this.now()) / 1000)) };
  }

  /** Counts one attempt; answers whether it was within the limit. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.now();
    let entry = this.current(key);
    if (!entry) {
      if (this.windows.size > 50_000) this.sweep();
      entry = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    const allowed = entry.count <= this.limit;
    return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) };
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const entry = this.windows.get(key);
    if (entry && entry.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep() {
    const now = this.now();
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}
