import { describe, expect, it } from 'vitest';
import { checkLiveBrowsers, checkPendingInputs, maxLifetimeMs } from './limits';

const config = { maxLiveBrowsersPerUser: 2, maxLiveBrowsers: 3 };

describe('conversation limits', () => {
  it('refuses a live browser beyond the user’s or the server’s, naming the setting', () => {
    expect(() => checkLiveBrowsers(config, { mine: 1, all: 2 })).not.toThrow();
    expect(() => checkLiveBrowsers(config, { mine: 2, all: 2 })).toThrow(
      'You already have 2 live browsers open, the most you may have at once (MAX_LIVE_BROWSERS_PER_USER). ' +
        'Stop it (the red dot above the video) before starting another.',
    );
    expect(() => checkLiveBrowsers({ ...config, maxLiveBrowsersPerUser: 1 }, { mine: 1, all: 1 })).toThrow(
      /^You already have a live browser open/,
    );
    expect(() => checkLiveBrowsers(config, { mine: 0, all: 3 })).toThrow(
      'All 3 live browsers this server runs at once are in use (MAX_LIVE_BROWSERS). Try again in a few minutes.',
    );
    expect(() => checkLiveBrowsers(config, { mine: 2, all: 3 })).toThrow(
      expect.objectContaining({
        code: 'BROWSER_LIMIT_REACHED',
        message: expect.stringContaining('PER_USER'),
      }),
    );
  });

  it('takes takeover input up to CONVERSATION_MAX_PENDING_INPUTS waiting, 64 when unset', () => {
    expect(() => checkPendingInputs({ ...config, conversationMaxPendingInputs: 2 }, 1)).not.toThrow();
    expect(() => checkPendingInputs({ ...config, conversationMaxPendingInputs: 2 }, 2)).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED', message: expect.stringContaining('at most 2') }),
    );
    expect(() => checkPendingInputs(config, 63)).not.toThrow();
    expect(() => checkPendingInputs(config, 64)).toThrow(/at most 64 \(CONVERSATION_MAX_PENDING_INPUTS\)/);
  });

  it('keeps a live browser at most an hour unless CONVERSATION_MAX_LIFETIME_MS says otherwise', () => {
    expect(maxLifetimeMs(config)).toBe(3_600_000);
    expect(maxLifetimeMs({ ...config, conversationMaxLifetimeMs: 0 })).toBe(0);
  });
});
