import type { ClientMessageInput, ServerMessage } from '@argus/protocol';

/** The socket's state as the realtime client reports it. */
export type SocketStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/**
 * What a screen needs from the realtime socket. The app passes its realtime context value
 * (features do not import each other); only these members are used.
 */
export interface ScreenRealtime {
  status: SocketStatus;
  isConnected: boolean;
  /** Throws while disconnected or when the message does not match the protocol. */
  send: (message: ClientMessageInput) => void;
  client: { onMessage(listener: (message: ServerMessage) => void): () => void };
}
