export {
  type ExpiringApp,
  type ExpiringAppItem,
  type ExpiringAppOptions,
  startExpiringApp,
} from './expiring-app';
export { startGzipBombServer } from './gzip-bomb-server';
