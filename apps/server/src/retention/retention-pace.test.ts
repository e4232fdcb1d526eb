import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('configuration of the retention sweep’s pace', () => {
  it('deletes 100 rows a statement, pauses 40 ms between and stops after 10 s by default, and reads each from the environment', () => {
    expect(loadConfig({}).retentionPace).toEqual({ batchSize: 100, pauseMs: 40, budgetMs: 10_000 });
    expect(
      loadConfig({
        RETENTION_BATCH_SIZE: '20',
        RETENTION_BATCH_PAUSE_MS: '0',
        RETENTION_SWEEP_BUDGET_MS: '500',
      }).retentionPace,
    ).toEqual({ batchSize: 20, pauseMs: 0, budgetMs: 500 });
  });

  it('refuses a batch, pause or budget out of bounds or not whole, naming the setting', () => {
    expect(() => loadConfig({ RETENTION_BATCH_SIZE: '0' })).toThrow(
      /RETENTION_BATCH_SIZE must be a whole number from 1 to 5000/,
    );
    expect(() => loadConfig({ RETENTION_BATCH_SIZE: '5001' })).toThrow(/RETENTION_BATCH_SIZE/);
    expect(() => loadConfig({ RETENTION_BATCH_PAUSE_MS: '-1' })).toThrow(/RETENTION_BATCH_PAUSE_MS/);
    expect(() => loadConfig({ RETENTION_BATCH_PAUSE_MS: '2.5' })).toThrow(/RETENTION_BATCH_PAUSE_MS/);
    expect(() => loadConfig({ RETENTION_SWEEP_BUDGET_MS: '99' })).toThrow(/RETENTION_SWEEP_BUDGET_MS/);
    expect(() => loadConfig({ RETENTION_SWEEP_BUDGET_MS: 'soon' })).toThrow(/RETENTION_SWEEP_BUDGET_MS/);
  });
});
