/**
 * Generation budgets for a test server whose test is about something around a generation (ownership,
 * quotas, the messages, the screen) rather than what it generates: a generation in a few seconds
 * instead of the defaults' half a minute. Tests of generation itself keep the defaults
 * (docs/TESTING.md).
 */

/** The behaviour explorer only: a few actions tried, a few seconds (EXPLORE_BEHAVIOUR_*). */
export const SMALL_BEHAVIOUR_EXPLORATION = {
  EXPLORE_BEHAVIOUR_MAX_ACTIONS: '6',
  EXPLORE_BEHAVIOUR_TIME_BUDGET_MS: '5000',
} as const;

/**
 * The page crawl too: the start page and one more. On the fixture shop site (fixtures/site) the
 * built-in engine still writes 8 cases from them, none from the pages with the planted defects.
 */
export const SMALL_EXPLORATION = {
  EXPLORE_MAX_PAGES: '2',
  EXPLORE_TIME_BUDGET_MS: '5000',
  ...SMALL_BEHAVIOUR_EXPLORATION,
} as const;
