import { AbortedError } from '../errors';
import type { SessionCloseReason, SessionInternals, SessionOptions } from './options';

/**
 * A session's life from open to close: every operation runs through {@link operation} (refused once
 * closed, given up on a stop, counted so the idle timeout never fires under one), and {@link end} closes
 * it once, whatever the reason: the holder, the idle timeout, its signal, a crash, or the browser or
 * pool going away.
 */
export class SessionLifecycle {
  /** Aborted when the holder closes the session, it idles out or its signal aborts. */
  private readonly lifetime = new AbortController();
  private readonly idleTimeoutMs: number;
  private readonly signal?: AbortSignal;
  private readonly onClose?: (reason: SessionCloseReason) => void;
  private readonly onContextClosing?: (reason: SessionCloseReason) => Promise<void>;
  private busy = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private reason: SessionCloseReason | null = null;
  private ending: Promise<void> | null = null;
  private readonly onUserAbort = () => void this.end('aborted');

  constructor(
    private readonly internals: SessionInternals,
    options: Pick<SessionOptions, 'signal' | 'idleTimeoutMs' | 'onClose' | 'onContextClosing'>,
    /** What closing does before the context closes (the screenshots in flight, the screencast). */
    private readonly beforeClose: () => Promise<void>,
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
    this.signal = options.signal;
    this.onClose = options.onClose;
    this.onContextClosing = options.onContextClosing;
  }

  /**
   * Starts watching the signal, the page and the context, and the idle clock. Called once the session
   * is assembled: an already aborted signal closes it at once.
   */
  start(): void {
    const { context, page, poolClosed } = this.internals;
    this.signal?.addEventListener('abort', this.onUserAbort, { once: true });
    const gone = () => void this.end(poolClosed() ? 'pool-closed' : 'browser-closed');
    context.on('close', gone);
    page.on('close', gone);
    page.on('crash', () => void this.end('crashed'));
    if (this.signal?.aborted) void this.end('aborted');
    else this.armIdle();
  }

  /** Why the session ended, or null while it is open. */
  get closeReason(): SessionCloseReason | null {
    return this.reason;
  }

  /** The holder, the idle timeout or the signal stopped the session (not the browser going away). */
  get stopped(): boolean {
    return this.lifetime.signal.aborted;
  }

  /**
   * Runs an operation: refused once closed; rejected with AbortedError as soon as the session's
   * or the operation's signal aborts (the work is told through the signal it receives). The work is
   * started synchronously, before this returns.
   */
  operation<T>(options: { signal?: AbortSignal }, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.reason) {
      return Promise.reject(
        this.reason === 'aborted'
          ? new AbortedError()
          : new Error(`The browser session is closed (${this.reason})`),
      );
    }
    const sources = [this.lifetime.signal, options.signal].filter((s): s is AbortSignal => !!s);
    if (sources.some((s) => s.aborted)) return Promise.reject(this.abortError(options.signal));
    const controller = new AbortController();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        controller.abort();
        reject(this.abortError(options.signal));
      };
    });
    for (const s of sources) s.addEventListener('abort', onAbort!, { once: true });
    this.busy++;
    this.clearIdle();
    const run = work(controller.signal);
    run.catch(() => {}); // it may lose the race and reject later
    return Promise.race([run, aborted]).finally(() => {
      for (const s of sources) s.removeEventListener('abort', onAbort!);
      controller.abort(); // nothing of it goes on polling
      this.busy--;
      this.armIdle();
    });
  }

  /** Closes the session once; later calls answer the same promise. */
  end(reason: SessionCloseReason): Promise<void> {
    if (this.ending) return this.ending;
    this.reason = reason;
    this.clearIdle();
    this.signal?.removeEventListener('abort', this.onUserAbort);
    // Operations in flight give up at once, unless the browser went away under them: they then fail
    // with the browser's own error (a user's stop and a crash read differently).
    if (reason === 'closed' || reason === 'idle' || reason === 'aborted') this.lifetime.abort();
    this.ending = (async () => {
      await this.beforeClose();
      // A recording still running is stopped while the context can give it up (it bounds its own wait).
      await this.onContextClosing?.(reason).catch(() => {});
      await this.internals.context.close().catch(() => {});
      this.internals.release();
      try {
        this.onClose?.(reason);
      } catch {
        // the holder's callback cannot undo the close
      }
    })();
    return this.ending;
  }

  private abortError(opSignal?: AbortSignal): AbortedError {
    if (opSignal?.aborted || this.reason === 'aborted') return new AbortedError();
    return new AbortedError('The browser session closed');
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private armIdle(): void {
    this.clearIdle();
    if (this.reason || this.busy > 0 || !(this.idleTimeoutMs > 0)) return;
    this.idleTimer = setTimeout(() => void this.end('idle'), this.idleTimeoutMs);
    this.idleTimer.unref();
  }
}
