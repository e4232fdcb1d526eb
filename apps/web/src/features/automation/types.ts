import type { User } from '@argus/protocol';
import type { ScreenRealtime } from '../../lib/screen-realtime';
import type { ScreenSessionStore } from '../../lib/sessions/screen-session';

/** What the screen needs from the realtime socket (see ScreenRealtime). */
export type AutomationRealtime = ScreenRealtime;

export interface AutomationScreenProps {
  /** The signed-in user, or null (then the screen asks to log in). */
  user: User | null;
  realtime: AutomationRealtime;
  /** The app's sessions store: the screen's work is kept with an automation session. */
  sessions: ScreenSessionStore;
}
