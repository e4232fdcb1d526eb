import { AbortedError } from '@argus/engine';

/**
 * At most `size` pieces of image work (a comparison viewport's decode and measures, an upload's decode)
 * at once in this process, the rest waiting in arrival order: each holds up to a few hundred MB at the
 * largest sizes, and several users' comparisons at once must not add up past the machine's memory.
 * A wait ends early, with AbortedError, when its signal aborts (a stopped comparison leaves the queue).
 */
export class ImageWorkGate {
  private active = 0;
  private readonly waiting: { start: () => void; signal?: AbortSignal; abort?: () => void }[] = [];

  constructor(readonly size: number) {}

  /** Pieces running now and waiting (for tests and logs). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new AbortedError();
    if (this.active >= this.size) await this.wait(signal);
    else this.active++;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Waits for a turn; the slot is handed over by `release`, so `active` never drops in between. */
  private wait(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry: (typeof this.waiting)[number] = { start: resolve, signal };
      if (signal) {
        entry.abort = () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new AbortedError());
        };
        signal.addEventListener('abort', entry.abort, { once: true });
      }
      this.waiting.push(entry);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.active--;
      return;
    }
    if (next.abort) next.signal?.removeEventListener('abort', next.abort);
    next.start();
  }
}
