import { describe, expect, it } from 'vitest';
import { formatBytes, quotaPercent, quotaText, retentionText, sweepText } from './storage';

describe("the Storage panel's wording", () => {
  it('shows sizes in binary units, rounded for reading', () => {
    expect([0, 1, 1536, 5 * 1024 ** 2 + 1, 1024 ** 3, 250 * 1024 ** 2].map(formatBytes)).toEqual([
      '0 bytes',
      '1 byte',
      '1.5 KiB',
      '5 MiB',
      '1 GiB',
      '250 MiB',
    ]);
  });

  it('shows the share of the quota, a sliver as 1 % and past it as full, none without a quota', () => {
    expect(quotaPercent({ total_bytes: 0, quota_bytes: 1000 })).toBe(0);
    expect(quotaPercent({ total_bytes: 1, quota_bytes: 1000 })).toBe(1);
    expect(quotaPercent({ total_bytes: 426, quota_bytes: 1000 })).toBe(43);
    expect(quotaPercent({ total_bytes: 2000, quota_bytes: 1000 })).toBe(100);
    expect(quotaPercent({ total_bytes: 10, quota_bytes: null })).toBeNull();
    expect(quotaText({ total_bytes: 1, quota_bytes: 1000 })).toBe('Under 1% used');
    expect(quotaText({ total_bytes: 10, quota_bytes: 1000 })).toBe('1% used');
    expect(quotaText({ total_bytes: 426, quota_bytes: 1000 })).toBe('43% used');
  });

  it('says how long history is kept, and what the last clean-up freed', () => {
    expect(retentionText(30)).toBe('History is kept for 30 days');
    expect(retentionText(1)).toBe('History is kept for 1 day');
    expect(retentionText(0)).toBe('History is kept forever');
    const sweep = { finished_at: '', cutoff: '', blobs_deleted: 3, comparisons_deleted: 1 };
    expect(sweepText({ ...sweep, runs_deleted: 12, bytes_freed: 3 * 1024 ** 2 })).toBe(
      'Removed 12 runs and 1 design comparison, freeing 3 MiB.',
    );
    expect(
      sweepText({ ...sweep, runs_deleted: 0, comparisons_deleted: 0, blobs_deleted: 0, bytes_freed: 0 }),
    ).toBe('Nothing was old enough to remove.');
  });
});
