import type { User } from '@argus/protocol';
import type { ScreenRealtime } from '../../lib/screen-realtime';
import type { ScreenSessionStore } from '../../lib/sessions/screen-session';

/** What the screen needs from the realtime socket (see ScreenRealtime). */
export type ComparisonRealtime = ScreenRealtime;

export interface DesignComparisonScreenProps {
  user: User | null;
  realtime: ComparisonRealtime;
  /** The app's sessions store: each comparison belongs to a 'figma-comparison' session. */
  sessions: ScreenSessionStore;
}
