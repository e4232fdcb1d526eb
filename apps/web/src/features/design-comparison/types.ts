import type { ClientMessageInput, ServerMessage, User } from '@argus/protocol';
import type { ScreenSessionStore } from '../../lib/sessions/screen-session';

/**
 * What the screen needs from the realtime socket. The app passes its realtime context value
 * (features do not import each other); only these members are used.
 */
export interface ComparisonRealtime {
  status: 'disconnected' | 'connecting' | 'connected' | 'error';
  isConnected: boolean;
  /** Throws while disconnected or when the message does not match the protocol. */
  send: (message: ClientMessageInput) => void;
  client: { onMessage(listener: (message: ServerMessage) => void): () => void };
}

export interface DesignComparisonScreenProps {
  user: User | null;
  realtime: ComparisonRealtime;
  /** The app's sessions store: each comparison belongs to a 'figma-comparison' session. */
  sessions: ScreenSessionStore;
}
