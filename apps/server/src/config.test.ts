import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration of the built-in generator', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      exploreMaxPages: 10,
      exploreTimeBudgetMs: 20_000,
      exploreBehaviourMaxActions: 40,
      exploreBehaviourTimeBudgetMs: 60_000,
    });
  });

  it('reads the behaviour budget from the environment', () => {
    expect(
      loadConfig({ EXPLORE_BEHAVIOUR_MAX_ACTIONS: '6', EXPLORE_BEHAVIOUR_TIME_BUDGET_MS: '5000' }),
    ).toMatchObject({ exploreBehaviourMaxActions: 6, exploreBehaviourTimeBudgetMs: 5000 });
    // An explorer allowed no action would spend its time on nothing, as a crawl of no page would.
    expect(loadConfig({ EXPLORE_BEHAVIOUR_MAX_ACTIONS: '0' }).exploreBehaviourMaxActions).toBe(1);
  });

  it('refuses what is not a non-negative integer, naming the setting', () => {
    expect(() => loadConfig({ EXPLORE_BEHAVIOUR_MAX_ACTIONS: 'many' })).toThrow(
      /EXPLORE_BEHAVIOUR_MAX_ACTIONS must be a non-negative integer/,
    );
    expect(() => loadConfig({ EXPLORE_BEHAVIOUR_TIME_BUDGET_MS: '-1' })).toThrow(
      /EXPLORE_BEHAVIOUR_TIME_BUDGET_MS must be a non-negative integer/,
    );
    expect(() => loadConfig({ EXPLORE_BEHAVIOUR_TIME_BUDGET_MS: '2.5' })).toThrow(
      /EXPLORE_BEHAVIOUR_TIME_BUDGET_MS/,
    );
  });
});

describe('configuration of history retention', () => {
  it('keeps 30 days and sweeps hourly by default, and reads both from the environment', () => {
    expect(loadConfig({})).toMatchObject({ historyRetentionDays: 30, retentionSweepIntervalMs: 3_600_000 });
    expect(loadConfig({ HISTORY_RETENTION_DAYS: '0', RETENTION_SWEEP_INTERVAL_MS: '60000' })).toMatchObject({
      historyRetentionDays: 0,
      retentionSweepIntervalMs: 60_000,
    });
  });

  it('refuses a retention that is not a whole number of days, naming the setting', () => {
    expect(() => loadConfig({ HISTORY_RETENTION_DAYS: '-1' })).toThrow(/HISTORY_RETENTION_DAYS/);
    expect(() => loadConfig({ HISTORY_RETENTION_DAYS: '1.5' })).toThrow(/HISTORY_RETENTION_DAYS/);
  });
});

describe('configuration of request limits', () => {
  it("limits a read's database work to 15 s and heavy requests to 2 per user by default", () => {
    expect(loadConfig({})).toMatchObject({ databaseStatementTimeoutMs: 15_000, heavyRequestsPerUser: 2 });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseStatementTimeoutMs).toBe(0);
    expect(loadConfig({ HEAVY_REQUESTS_PER_USER: '0' }).heavyRequestsPerUser).toBe(1);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '15s' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ HEAVY_REQUESTS_PER_USER: '-1' })).toThrow(/HEAVY_REQUESTS_PER_USER/);
  });
});

describe('configuration of scale-out', () => {
  it('is one process by default, and reads REDIS_URL beside a PostgreSQL and the worker lock', () => {
    expect(loadConfig({})).toMatchObject({
      redisUrl: undefined,
      workerLockMs: 30_000,
      databaseRetryMs: 30_000,
    });
    expect(loadConfig({ DATABASE_RETRY_MS: '0' }).databaseRetryMs).toBe(0);
    expect(() => loadConfig({ DATABASE_RETRY_MS: 'soon' })).toThrow(/DATABASE_RETRY_MS/);
    expect(
      loadConfig({
        REDIS_URL: 'redis://127.0.0.1:6379/2',
        DATABASE_URL: 'postgres://argus@db/argus',
        WORKER_LOCK_MS: '5000',
      }),
    ).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379/2', workerLockMs: 5000 });
  });

  it('refuses a REDIS_URL that is not redis:// or rediss://, or one without DATABASE_URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379', DATABASE_URL: 'postgres://db/a' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL',
    );
    // The embedded database belongs to one process: web processes and workers share one PostgreSQL.
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/REDIS_URL needs DATABASE_URL/);
  });
});
