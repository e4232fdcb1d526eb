import type { SavedSuite, SavedSuiteVersion } from '@argus/protocol';

/** The version history, newest first. */
export function versionHistory(suite: SavedSuite): SavedSuiteVersion[] {
  return [...suite.versions].sort((a, b) => b.version - a.version);
}

/** The latest change: the newest version's entry, or null for a suite without history. */
export function lastChange(suite: SavedSuite): SavedSuiteVersion | null {
  return versionHistory(suite)[0] ?? null;
}

/** The names of a suite's test cases, in order. */
export function testNames(suite: SavedSuite): string[] {
  return suite.test_cases.map((testCase, index) => testCase.test_name || `Test ${index + 1}`);
}
