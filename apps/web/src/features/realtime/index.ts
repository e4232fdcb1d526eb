export { sendCleanupBeacon } from './cleanup-beacon';
export { ConnectionBadge } from './connection-badge';
export { ProtocolMismatchBanner } from './protocol-mismatch-banner';
export {
  buildSocketUrl,
  MAX_RECONNECT_ATTEMPTS,
  REALTIME_ERRORS,
  RECONNECT_DELAY_MS,
  RealtimeClient,
  type RealtimeState,
} from './realtime-client';
export {
  type RealtimeContextValue,
  RealtimeProvider,
  useConnectionStatus,
  useRealtime,
  useServerMessages,
} from './realtime-context';
