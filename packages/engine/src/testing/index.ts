export { type DiagnosticsApp, startDiagnosticsApp } from './diagnostics-app';
export {
  type ExpiringApp,
  type ExpiringAppItem,
  type ExpiringAppOptions,
  startExpiringApp,
} from './expiring-app';
export { startGzipBombServer } from './gzip-bomb-server';
