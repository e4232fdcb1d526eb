import { describe, expect, it } from 'vitest';
import { createStopGuard } from './stop-guard';

describe('stop guard (docs/PRODUCT.md#stopping-a-conversation)', () => {
  it('ignores a stop while one is in progress', () => {
    const guard = createStopGuard();
    expect(guard.tryBegin()).toBe(true);
    expect(guard.tryBegin()).toBe(false);
    guard.end();
    expect(guard.tryBegin()).toBe(true);
  });

  it('ignores stops while the page unloads', () => {
    const guard = createStopGuard();
    guard.setUnloading(true);
    expect(guard.tryBegin()).toBe(false);
    guard.setUnloading(false);
    expect(guard.tryBegin()).toBe(true);
  });

  it('runs the automatic clean-up once per session', () => {
    const guard = createStopGuard();
    expect(guard.claimCleanup(null)).toBe(false);
    expect(guard.claimCleanup('s1')).toBe(true);
    expect(guard.claimCleanup('s1')).toBe(false);
    expect(guard.claimCleanup('s2')).toBe(true);
  });
});
