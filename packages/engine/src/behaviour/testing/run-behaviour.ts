import type { SessionOpener } from '../../browser-pool';
import type { Behaviour } from '../explorer/types';

/**
 * Runs a behaviour's steps (setup, action, checks) in a fresh session at `url` (its own page when not
 * given), as a generated case runs them: the first step that fails, in words, or null when all held.
 */
export async function runBehaviour(pool: SessionOpener, b: Behaviour, url = b.url): Promise<string | null> {
  const session = await pool.openSession({ stepTimeoutMs: 3_000 });
  try {
    await session.navigate(url);
    for (const step of [...b.setup, ...b.action, ...b.assertions]) {
      try {
        await session.perform(step);
      } catch (error) {
        return `${JSON.stringify(step)}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return null;
  } finally {
    await session.close();
  }
}
