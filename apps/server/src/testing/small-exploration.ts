/**
 * The generation budget for a test server whose test is about something around a generation
 * (ownership, quotas, the messages, the screen) rather than what it generates: the start page and
 * one more, a few actions on the app, a generation in a few seconds instead of the defaults' half a
 * minute (docs/TESTING.md). On the fixture shop site (fixtures/site) the built-in engine still writes
 * 8 cases, none from the pages with the planted defects. Nor are the cases checked by running them
 * before they are handed out (GENERATION_CHECK_RUNS=0): the tests that generate with the defaults
 * (automation.api.test.ts, e2e/automation.e2e.test.ts) check that.
 */
export const SMALL_EXPLORATION = {
  EXPLORE_MAX_PAGES: '2',
  EXPLORE_TIME_BUDGET_MS: '5000',
  EXPLORE_BEHAVIOUR_MAX_ACTIONS: '6',
  EXPLORE_BEHAVIOUR_TIME_BUDGET_MS: '5000',
  GENERATION_CHECK_RUNS: '0',
} as const;
