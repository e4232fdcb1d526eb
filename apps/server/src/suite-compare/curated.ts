import type { TestCase } from '@argus/protocol';

/** One saved version of a suite, oldest first: its cases and its change note. */
export interface VersionOfSuite {
  version: number;
  change: string;
  test_cases: unknown[];
}

/**
 * Change notes written by Argus itself, not by a person: a new suite (what a generation saves), a
 * generation, an accepted comparison ('Regenerated: …'), approved repairs ('Repaired from run …').
 * Any other version changed its cases by hand (the editor's notes are the saver's own words, or
 * describeChange's 'Added 0 test cases, changed 1, removed 0').
 */
const MACHINE_CHANGE = /^(created with|generated|regenerated|repaired)\b/i;

/** A case's identity across versions: its id when it has one, else its name. */
function keyOf(testCase: Partial<TestCase>): string {
  if (testCase.id !== undefined && testCase.id !== null && String(testCase.id) !== '')
    return `id:${String(testCase.id)}`;
  return `name:${(testCase.test_name ?? (testCase as { name?: string }).name ?? '').trim().toLowerCase()}`;
}

const stepsOf = (testCase: unknown): string =>
  JSON.stringify(((testCase as { steps?: unknown[] })?.steps ?? []).map((line) => String(line).trim()));

/**
 * Which cases of the latest version were edited by hand since they were generated: a case is curated
 * when the last version that changed its steps (or brought it in) was not one Argus wrote. The first
 * version is where a suite starts (generated, or written whole): its cases are not curated by it.
 * Answers one flag per case of `current`, in its order.
 */
export function curatedCases(versions: VersionOfSuite[], current: TestCase[]): boolean[] {
  const ordered = [...versions].sort((a, b) => a.version - b.version);
  // Per case key: the change note of the version that last changed its steps.
  const lastChange = new Map<string, { steps: string; change: string; first: boolean }>();
  ordered.forEach((version, index) => {
    for (const raw of version.test_cases) {
      const testCase = raw as Partial<TestCase>;
      const key = keyOf(testCase);
      const steps = stepsOf(testCase);
      const before = lastChange.get(key);
      if (before && before.steps === steps) continue;
      lastChange.set(key, { steps, change: version.change, first: index === 0 });
    }
  });
  return current.map((testCase) => {
    const last = lastChange.get(keyOf(testCase));
    // A case no version holds as it is now (the history is gone): not known to be curated.
    if (!last || last.steps !== stepsOf(testCase)) return false;
    return !last.first && !MACHINE_CHANGE.test(last.change.trim());
  });
}
