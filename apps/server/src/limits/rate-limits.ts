import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { createHeavyRequests, type HeavyRequests, heavyRequestOptions } from './heavy-requests';
import { createRateLimit, type RateLimit } from './rate-limiter';

type LimitsConfig = Pick<
  Config,
  | 'loginAttemptsPerIp'
  | 'loginFailuresPerUser'
  | 'registrationsPerIp'
  | 'cleanupRequestsPerIp'
  | 'uploadsPerUser'
  | 'rateLimitWindowSeconds'
  | 'heavyRequestsPerUser'
  | 'databaseStatementTimeoutMs'
>;

/** The server's request limits; routes and uploads refuse past them with RATE_LIMITED and Retry-After. */
export interface RateLimits {
  /** LOGIN_ATTEMPTS_PER_IP per RATE_LIMIT_WINDOW_SECONDS. */
  loginPerIp: RateLimit;
  /** LOGIN_FAILURES_PER_USER per window, per account (reset by a successful login). */
  loginFailuresPerUser: RateLimit;
  /** REGISTRATIONS_PER_IP per window. */
  registrationsPerIp: RateLimit;
  /** The landing page's demo form: REGISTRATIONS_PER_IP per window, counted apart. */
  demoRequestsPerIp: RateLimit;
  /** CLEANUP_REQUESTS_PER_IP per window: the page-unload beacon. */
  cleanupPerIp: RateLimit;
  /** 'Test connection' presses per user per minute. */
  testConnectionPerUser: RateLimit;
  /** UPLOADS_PER_USER per window, over HTTP and the socket together. */
  uploadsPerUser: RateLimit;
  /** HEAVY_REQUESTS_PER_USER under way at once: analytics and exports (heavy-requests.ts). */
  heavyRequests: HeavyRequests;
}

/**
 * Every limit of the server, built once per process: counted in `redis` (a web process with
 * REDIS_URL), so each limit holds across all web processes instead of once per process, else in
 * memory (rate-limiter.ts says what happens while Redis is unreachable).
 */
export function createRateLimits(config: LimitsConfig, redis?: Redis): RateLimits {
  const windowSeconds = config.rateLimitWindowSeconds;
  const limit = (name: string, points: number, seconds = windowSeconds) =>
    createRateLimit({ name, points, windowSeconds: seconds }, redis);
  return {
    loginPerIp: limit('login-ip', config.loginAttemptsPerIp),
    loginFailuresPerUser: limit('login-account', config.loginFailuresPerUser),
    registrationsPerIp: limit('register-ip', config.registrationsPerIp),
    demoRequestsPerIp: limit('demo-request-ip', config.registrationsPerIp),
    cleanupPerIp: limit('cleanup-ip', config.cleanupRequestsPerIp),
    testConnectionPerUser: limit('test-connection-user', 10, 60),
    uploadsPerUser: uploadLimit(config, redis),
    heavyRequests: createHeavyRequests(heavyRequestOptions(config), redis),
  };
}

/** UPLOADS_PER_USER per window (also what comparison/uploads.ts counts in memory when given none). */
export function uploadLimit(
  config: Pick<Config, 'uploadsPerUser' | 'rateLimitWindowSeconds'>,
  redis?: Redis,
): RateLimit {
  return createRateLimit(
    { name: 'upload-user', points: config.uploadsPerUser, windowSeconds: config.rateLimitWindowSeconds },
    redis,
  );
}
