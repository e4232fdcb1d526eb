import type { SocketStatus } from '../lib/screen-realtime';

/**
 * How each socket state reads and the colour of its dot (docs/PRODUCT.md#connection), for the screens'
 * connection badge and the shell's connection pill.
 */
export const CONNECTION_STATUS: Record<SocketStatus, { label: string; dot: string }> = {
  connected: { label: 'Connected', dot: 'bg-emerald-500' },
  connecting: { label: 'Connecting...', dot: 'bg-amber-400 animate-pulse' },
  disconnected: { label: 'Disconnected', dot: 'bg-slate-400' },
  error: { label: 'Disconnected', dot: 'bg-red-500' },
};
