/** A stop asked for by the caller (an AbortSignal) or a session closed under an operation. */
export class AbortedError extends Error {
  constructor(message = 'Stopped') {
    super(message);
    this.name = 'AbortedError';
  }
}

/** The first line of an error, the part a person reads (Playwright appends a call log). */
export function cleanError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\nCall log:')[0].split('\n=====')[0].trim();
}

/**
 * Waits `ms`, or rejects with an AbortedError (`message`) as soon as `signal` fires: the one pause
 * every retry and settle loop uses, so a Stop never waits out a timer.
 */
export function abortableDelay(ms: number, signal?: AbortSignal, message?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(message));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(message));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
