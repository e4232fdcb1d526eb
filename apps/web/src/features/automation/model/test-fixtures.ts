import type { ExplorationSummary } from '@argus/protocol';

// Test data shared by this folder's tests (the state's and the session record's); the screen never
// imports it, so it stays out of the bundle.

/** What a generation explored: 11 actions of 40, stopped by its time limit, one behaviour left out. */
export const EXPLORATION = {
  actions: 11,
  maxActions: 40,
  states: 4,
  behaviours: 11,
  latencyMs: 108,
  timeLimitMs: 30000,
  elapsedMs: 13125,
  ended: 'time',
  skipped: ['reload the page'],
} as const satisfies ExplorationSummary;
