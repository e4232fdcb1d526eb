/**
 * Endurance checks run twice over: short in the normal suite (`npm test`), still failing when the
 * behaviour breaks, and at full length in CI's `endurance` project (vitest.config.ts sets
 * ARGUS_ENDURANCE=1 there and runs only tests under a describe named 'endurance'). docs/TESTING.md
 * lists them.
 */
export const ENDURANCE = process.env.ARGUS_ENDURANCE === '1';

/** `short` in the normal suite, `long` in the endurance project. */
export function endurance<T>(short: T, long: T): T {
  return ENDURANCE ? long : short;
}
