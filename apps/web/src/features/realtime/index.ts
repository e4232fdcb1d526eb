export { sendCleanupBeacon } from './cleanup-beacon';
export { ConnectionBadge } from './connection-badge';
export {
  buildSocketUrl,
  type ConnectionStatus,
  MAX_RECONNECT_ATTEMPTS,
  REALTIME_ERRORS,
  REALTIME_MESSAGE_EVENT,
  RECONNECT_DELAY_MS,
  RealtimeClient,
  type RealtimeState,
  realtimeEventName,
} from './realtime-client';
export {
  onServerMessage,
  type RealtimeContextValue,
  RealtimeProvider,
  useConnectionStatus,
  useRealtime,
  useServerMessage,
} from './realtime-context';
