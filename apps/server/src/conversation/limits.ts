import type { Config } from '../config';
import { AppError } from '../errors';

/** CONVERSATION_MAX_LIFETIME_MS when the caller gives none (config.ts has the same default). */
const DEFAULT_MAX_LIFETIME_MS = 3_600_000;
/** CONVERSATION_MAX_PENDING_INPUTS when the caller gives none (config.ts has the same default). */
const DEFAULT_MAX_PENDING_INPUTS = 64;

export type LimitsConfig = Pick<Config, 'maxLiveBrowsersPerUser' | 'maxLiveBrowsers'> &
  Partial<Pick<Config, 'conversationMaxLifetimeMs' | 'conversationMaxPendingInputs'>>;

/**
 * A new live browser within MAX_LIVE_BROWSERS_PER_USER (the user's, `mine`) and MAX_LIVE_BROWSERS (the
 * server's, `all`), else BROWSER_LIMIT_REACHED naming the setting and what the user can do.
 */
export function checkLiveBrowsers(config: LimitsConfig, counts: { mine: number; all: number }): void {
  if (counts.mine >= config.maxLiveBrowsersPerUser) {
    const n = config.maxLiveBrowsersPerUser;
    throw new AppError(
      'BROWSER_LIMIT_REACHED',
      `You already have ${n === 1 ? 'a live browser' : `${n} live browsers`} open, the most you may have at once ` +
        '(MAX_LIVE_BROWSERS_PER_USER). Stop it (the red dot above the video) before starting another.',
    );
  }
  if (counts.all >= config.maxLiveBrowsers) {
    throw new AppError(
      'BROWSER_LIMIT_REACHED',
      `All ${config.maxLiveBrowsers} live browsers this server runs at once are in use (MAX_LIVE_BROWSERS). ` +
        'Try again in a few minutes.',
    );
  }
}

/**
 * Takeover input waits at most CONVERSATION_MAX_PENDING_INPUTS deep, so a client cannot pile up work
 * behind a slow page; `pending` counts the inputs queued or being sent.
 */
export function checkPendingInputs(config: LimitsConfig, pending: number): void {
  const most = config.conversationMaxPendingInputs ?? DEFAULT_MAX_PENDING_INPUTS;
  if (pending >= most) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many takeover inputs waiting for the page: at most ${most} (CONVERSATION_MAX_PENDING_INPUTS); this one was dropped.`,
    );
  }
}

/** CONVERSATION_MAX_LIFETIME_MS: how long a live browser may stay open whatever its input (0: for ever). */
export function maxLifetimeMs(config: LimitsConfig): number {
  return config.conversationMaxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS;
}
