import { AbortedError } from '../errors';

/** `work`, unless the timeout or the signal comes first. */
export async function race<T>(
  work: Promise<T>,
  ms: number,
  message: string,
  signal: AbortSignal,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new AbortedError());
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    work.catch(() => {}); // the loser of the race may still reject later
  }
}
