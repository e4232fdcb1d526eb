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
