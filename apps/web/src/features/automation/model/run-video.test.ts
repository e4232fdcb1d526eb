import { describe, expect, it } from 'vitest';
import { framesPerSecond, readVideoPreference, writeVideoPreference } from './run-video';

describe('run video', () => {
  it('counts the frames of the last second', () => {
    expect(framesPerSecond([0, 100, 1500, 1900, 2000], 2000)).toBe(3);
    expect(framesPerSecond([], 2000)).toBe(0);
  });

  it('remembers the toggle, off by default and when storage fails', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(readVideoPreference(storage)).toBe(false);
    writeVideoPreference(storage, true);
    expect(readVideoPreference(storage)).toBe(true);
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readVideoPreference(broken)).toBe(false);
    expect(() => writeVideoPreference(broken, true)).not.toThrow();
  });
});
