/**
 * Pictures of the page asked of the browser and not yet arrived. A picture shows the page as it was
 * when asked for, so anything that changes the page waits for these first (reading does not).
 */
export class CapturesInFlight {
  private readonly shots = new Set<Promise<unknown>>();

  get size(): number {
    return this.shots.size;
  }

  /** Counts `shot` as in flight until it settles; answers what it answers. */
  async track<T>(shot: Promise<T>): Promise<T> {
    this.shots.add(shot);
    try {
      return await shot;
    } finally {
      this.shots.delete(shot);
    }
  }

  /** Until every picture in flight has arrived or failed. */
  async settle(): Promise<void> {
    if (this.shots.size > 0) await Promise.allSettled([...this.shots]);
  }

  /** Like {@link settle}, but waits at most `ms`. */
  async settleWithin(ms: number): Promise<void> {
    await Promise.race([Promise.allSettled([...this.shots]), new Promise((r) => setTimeout(r, ms).unref())]);
  }
}
