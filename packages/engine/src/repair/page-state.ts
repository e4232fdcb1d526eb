import { createHash } from 'node:crypto';
import type { PageTexts } from './page-controls';

/**
 * The failed step's page as a rejection remembers it: its path and its visible controls' roles and
 * names (not their order, texts or values, nor a word holding a digit: those change from run to run),
 * hashed. A reviewer's
 * rejection holds while the page still offers the same controls; a redesign since is a new state.
 */
export function pageState(page: Pick<PageTexts, 'path' | 'controls'>): string {
  // A word holding a digit is data (a count, a run's unique suffix on an item's name), not the page.
  const named = (name: string) => name.replace(/\S*\d\S*/g, '#');
  const controls = [
    ...new Set(page.controls.filter((c) => c.role !== 'heading').map((c) => `${c.role}:${named(c.name)}`)),
  ].sort();
  return createHash('sha256')
    .update([page.path.replace(/[?#].*$/, ''), ...controls].join('\n'))
    .digest('hex')
    .slice(0, 32);
}
