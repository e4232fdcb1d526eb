import type { ClientMessageInput, ServerMessage } from '@argus/protocol';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import type { SocketStatus } from '../../lib/screen-realtime';
import { RealtimeClient, type RealtimeState } from './realtime-client';

export interface RealtimeContextValue extends RealtimeState {
  isConnected: boolean;
  /** Sends a client message; throws 'WebSocket is not connected' while disconnected. */
  send: (message: ClientMessageInput) => void;
  reconnect: () => void;
  client: RealtimeClient;
}

const RealtimeContext = createContext<RealtimeContextValue | null>(null);

/**
 * Holds the user's socket open while signed in (`userId` and `token` come from the auth state,
 * `organizationId` from the current organization, composed by the app) and closes it on sign-out.
 */
export function RealtimeProvider({
  userId,
  token,
  organizationId = null,
  children,
}: {
  userId: string | null;
  token: string | null;
  /** The organization the socket acts in (the sidebar's choice); null: the personal one. */
  organizationId?: string | null;
  children: ReactNode;
}) {
  const client = useMemo(() => new RealtimeClient(), []);
  const state = useSyncExternalStore(client.subscribe, client.getState, client.getState);

  useEffect(() => {
    if (userId && token) client.connect(userId, token, organizationId);
    else client.disconnect();
  }, [client, userId, token, organizationId]);

  useEffect(() => () => client.disconnect(), [client]);

  // Back online after a loss: try at once rather than waiting out the back-off.
  useEffect(() => {
    const onOnline = () => {
      if (client.getState().status !== 'connected') client.reconnect();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [client]);

  const value = useMemo<RealtimeContextValue>(
    () => ({
      ...state,
      isConnected: state.status === 'connected',
      send: (message) => client.send(message),
      reconnect: () => client.reconnect(),
      client,
    }),
    [state, client],
  );

  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeContextValue {
  const value = useContext(RealtimeContext);
  if (!value) throw new Error('useRealtime must be used inside <RealtimeProvider>');
  return value;
}

/** The connection status for a badge or banner: connected, connecting, disconnected or error. */
export function useConnectionStatus(): { status: SocketStatus; lastError: string | null } {
  const { status, lastError } = useRealtime();
  return { status, lastError };
}

/**
 * Every message of the user's socket, while the component is mounted; the latest handler is always
 * called, without resubscribing. The handler keeps its own feature's and session's messages.
 */
export function useServerMessages(handler: (message: ServerMessage) => void): void {
  const { client } = useRealtime();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => client.onMessage((message) => ref.current(message)), [client]);
}
