import type { RecordingSettings, SavedSuite, SavedSuiteInput, SavedSuiteVersion } from '@argus/protocol';

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

/**
 * The save that changes only a suite's retries: its name and cases as they are, so the server makes
 * no new version (retries say how it runs, not what it tests), over the version shown (a suite saved
 * elsewhere meanwhile is refused, 409, rather than overwritten).
 */
export function retriesSave(suite: SavedSuite, retries: number): SavedSuiteInput {
  return { name: suite.name, test_cases: suite.test_cases, base_version: suite.version, retries };
}

/** The save that changes only how a suite's cases are recorded (traces, video): no new version, as retries. */
export function recordingSave(suite: SavedSuite, recording: RecordingSettings): SavedSuiteInput {
  return { name: suite.name, test_cases: suite.test_cases, base_version: suite.version, recording };
}

/**
 * The save that changes only whether every case of the suite ends with a visual check
 * (docs/VISUAL-CHECKS.md#a-check-after-every-case): no new version, as retries.
 */
export function visualEachCaseSave(suite: SavedSuite, visual_each_case: boolean): SavedSuiteInput {
  return { name: suite.name, test_cases: suite.test_cases, base_version: suite.version, visual_each_case };
}
