import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../../lib/memory-storage';
import { readSessionCache, sessionCacheKey, writeSessionCache } from './cache';
import type { ClientSession } from './types';

const base: ClientSession = {
  id: 's1',
  type: 'automation',
  title: 'Suite',
  url: null,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  userId: 'u1',
  description: null,
  settings: {},
  isLocalOnly: false,
  metadata: {
    screenshots: ['data:image/png;base64,AAAA'],
    logs: Array.from({ length: 30 }, (_, i) => `log ${i}`),
  },
};

describe('session cache (docs/PRODUCT.md#sessions: per user, last 10 logs, no screenshots)', () => {
  it('keeps one entry per user', () => {
    const storage = new MemoryStorage();
    writeSessionCache(storage, 'u1', [base]);
    writeSessionCache(storage, 'u2', [{ ...base, id: 's2', userId: 'u2' }]);
    expect(sessionCacheKey('u1')).not.toBe(sessionCacheKey('u2'));
    expect(readSessionCache(storage, 'u1')?.map((s) => s.id)).toEqual(['s1']);
    expect(readSessionCache(storage, 'u2')?.map((s) => s.id)).toEqual(['s2']);
  });

  it('stores no screenshots and only the last 10 logs', () => {
    const storage = new MemoryStorage();
    writeSessionCache(storage, 'u1', [base]);
    const raw = storage.getItem(sessionCacheKey('u1')) ?? '';
    expect(raw).not.toContain('data:image');
    const [cached] = readSessionCache(storage, 'u1') ?? [];
    expect(cached.metadata.screenshots).toBeUndefined();
    expect(cached.metadata.logs).toEqual(Array.from({ length: 10 }, (_, i) => `log ${20 + i}`));
  });

  it('answers null without a cache, skips entries that are not sessions, throws on garbage', () => {
    const storage = new MemoryStorage();
    expect(readSessionCache(storage, 'u1')).toBeNull();
    storage.setItem(sessionCacheKey('u1'), JSON.stringify({ version: 1, sessions: [{ id: 1 }, base] }));
    expect(readSessionCache(storage, 'u1')?.map((s) => s.id)).toEqual(['s1']);
    storage.setItem(sessionCacheKey('u1'), '{broken');
    expect(() => readSessionCache(storage, 'u1')).toThrow();
  });

  it('survives a full storage', () => {
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => writeSessionCache(full, 'u1', [base])).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
