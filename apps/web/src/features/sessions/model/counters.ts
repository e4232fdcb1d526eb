import type { ClientSession, SessionCounters } from './types';

export const EMPTY_COUNTERS: SessionCounters = { conversational: 0, automation: 0, total: 0 };

/**
 * docs/PRODUCT.md#sessions: only active sessions count; each counts towards its type (conversational or automation)
 * and towards the total. Derived from the list, so a create adds one, deleting (or closing) an
 * active session takes one away, and no counter can go below 0.
 */
export function countActiveSessions(sessions: readonly ClientSession[]): SessionCounters {
  const counters = { ...EMPTY_COUNTERS };
  for (const session of sessions) {
    if (session.status !== 'active') continue;
    counters.total += 1;
    if (session.type === 'conversational') counters.conversational += 1;
    else if (session.type === 'automation') counters.automation += 1;
  }
  return counters;
}
