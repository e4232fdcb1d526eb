import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStopFlag, newStopId } from './stop-flag';

describe('stop flag (docs/PRODUCT.md#stopping-a-run)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is set by Stop and resets by itself after 3 s', () => {
    const flag = createStopFlag();
    const changes = vi.fn();
    flag.subscribe(changes);
    expect(flag.set()).toBe(false);
    expect(flag.isSet()).toBe(true);
    vi.advanceTimersByTime(2999);
    expect(flag.isSet()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(flag.isSet()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('answers that it was already set when Stop is pressed again (→ force), restarting the 3 s', () => {
    const flag = createStopFlag();
    flag.set();
    vi.advanceTimersByTime(2000);
    expect(flag.set()).toBe(true);
    vi.advanceTimersByTime(2000);
    expect(flag.isSet()).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(flag.isSet()).toBe(false);
  });

  it('clears at once on the server acknowledgement or a manual reset, and its timer goes with it', () => {
    const flag = createStopFlag();
    flag.set();
    flag.clear();
    expect(flag.isSet()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(flag.set()).toBe(false);
    flag.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('makes distinct stop ids', () => {
    expect(newStopId(1700000000000, () => 0.123456)).toMatch(/^stop_1700000000000_[a-z0-9]+$/);
    expect(newStopId()).not.toBe(newStopId());
  });
});
