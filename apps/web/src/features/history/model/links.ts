import type { HistoryItem } from '@argus/protocol';
import { runPagePath } from '../../../lib/run-links';

export { runPagePath };

// Where a history line opens: a run its page here; a design comparison and a conversation their own
// screens, which reopen a past item from the address (docs/HISTORY.md).

/** The screen a history item opens; null when it cannot be opened (a comparison without its session). */
export function itemPath(item: Pick<HistoryItem, 'kind' | 'id' | 'session_id'>): string | null {
  switch (item.kind) {
    case 'run':
      return runPagePath(item.id);
    case 'comparison':
      return item.session_id ? `/figma-comparison?session=${encodeURIComponent(item.session_id)}` : null;
    case 'conversation':
      return `/conversational?conversation=${encodeURIComponent(item.id)}`;
  }
}
