import { describe, expect, it } from 'vitest';
import { countActiveSessions } from './counters';
import type { ClientSession } from './types';

function session(type: ClientSession['type'], status: ClientSession['status']): ClientSession {
  return {
    id: `${type}-${status}-${Math.random()}`,
    type,
    title: 't',
    url: null,
    status,
    createdAt: '',
    updatedAt: '',
    userId: 'u1',
    description: null,
    settings: {},
    isLocalOnly: false,
    metadata: {},
  };
}

describe('countActiveSessions (docs/PRODUCT.md#sessions: only active sessions count)', () => {
  it('counts active sessions per type and in total', () => {
    expect(
      countActiveSessions([
        session('automation', 'active'),
        session('automation', 'active'),
        session('conversational', 'active'),
        session('figma-comparison', 'active'),
        session('automation', 'closed'),
        session('conversational', 'cancelled'),
      ]),
    ).toEqual({ automation: 2, conversational: 1, total: 4 });
  });

  it('is zero for nothing', () => {
    expect(countActiveSessions([])).toEqual({ automation: 0, conversational: 0, total: 0 });
  });
});
