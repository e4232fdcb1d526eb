import type { EnvironmentRow, ProjectScope, SavedSuiteRow, SuiteRunSettings } from '@argus/db';
import { relativeToEnvironment, type TestCase } from '@argus/protocol';
import { AppError } from '../errors';
import { fieldError, plural } from './project-checks';
import type { SavedSuiteInputBody, SuiteAuthor } from './project-inputs';

// A project's saved suites and their versions, saved inside the project's locked scope
// (ProjectService.edit): each save a version with what it changed, unless it changes only how the
// suite runs (its retries, its recording, a visual check after every case).

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * What a save changed, for the history when the saver wrote nothing: cases are matched by id, else by
 * name, each old case at most once.
 */
export function describeChange(
  before: { name: string; test_cases: TestCase[] },
  after: { name: string; test_cases: TestCase[] },
): string {
  const keyOf = (testCase: TestCase) => (testCase.id ? `id:${testCase.id}` : `name:${testCase.test_name}`);
  const unmatched = new Map<string, string[]>();
  for (const testCase of before.test_cases) {
    const key = keyOf(testCase);
    unmatched.set(key, [...(unmatched.get(key) ?? []), canonical(testCase)]);
  }
  let added = 0;
  let changed = 0;
  let removed = before.test_cases.length;
  for (const testCase of after.test_cases) {
    const old = unmatched.get(keyOf(testCase))?.shift();
    if (old === undefined) {
      added++;
      continue;
    }
    removed--;
    if (old !== canonical(testCase)) changed++;
  }
  const renamed = before.name === after.name ? '' : `Renamed from "${before.name}"`;
  if (added + changed + removed === 0) return renamed || 'Saved with no changes';
  const cases = `Added ${plural(added, 'test case', 'test cases')}, changed ${changed}, removed ${removed}`;
  return renamed ? `${renamed}; ${cases.charAt(0).toLowerCase()}${cases.slice(1)}` : cases;
}

/** describeChange's words, prefixed with who wrote the cases when not a person. */
function describedBy(
  input: SavedSuiteInputBody,
  current: { name: string; test_cases: unknown },
  test_cases: TestCase[],
): string {
  const change = describeChange(
    { name: current.name, test_cases: current.test_cases as TestCase[] },
    { name: input.name, test_cases },
  );
  return input.written_by
    ? `${input.written_by}: ${change.charAt(0).toLowerCase()}${change.slice(1)}`
    : change;
}

/** A new suite, version 1; answers its id. */
export async function createSuite(
  scope: ProjectScope,
  author: SuiteAuthor,
  input: SavedSuiteInputBody,
): Promise<string> {
  if (await scope.suiteNamed(input.name))
    throw fieldError(['body', 'name'], `A suite named "${input.name}" already exists in this project`);
  const test_cases = storedCases(await scope.environments(), input);
  const row = await scope.createSuite({
    name: input.name,
    test_cases,
    ...runSettingsOf(input),
    saved_by: author.username,
    change:
      input.change_note?.trim() || `Created with ${plural(test_cases.length, 'test case', 'test cases')}`,
  });
  await scope.touch();
  return row.id;
}

/**
 * Saves a suite's next version. With `base_version`, a suite saved by someone (or somewhere) else
 * since that version is refused (SUITE_VERSION_CONFLICT) rather than overwritten.
 */
export async function saveSuiteVersion(
  scope: ProjectScope,
  author: SuiteAuthor,
  suiteId: string,
  input: SavedSuiteInputBody,
): Promise<true> {
  const current = await scope.suite(suiteId);
  if (!current) throw new AppError('SUITE_NOT_FOUND');
  if (input.base_version !== undefined && input.base_version !== current.version)
    throw new AppError(
      'SUITE_VERSION_CONFLICT',
      `This suite is at version ${current.version} since you opened version ${input.base_version}; reload it and save again`,
    );
  const named = await scope.suiteNamed(input.name);
  if (named && named.id !== suiteId)
    throw fieldError(['body', 'name'], `A suite named "${input.name}" already exists in this project`);
  const test_cases = storedCases(await scope.environments(), input);
  // A save that changes only the retries, the recording or the visual check after every case makes no
  // new version: they say how the suite runs, not what it tests (docs/HISTORY.md#retries; the Retries,
  // recording and visual check controls save this way). Any other save, even of the same cases, is a version, as before retries existed.
  const settings = runSettingsOf(input);
  const settingsOnly =
    changesRunSettings(current, settings) &&
    input.name === current.name &&
    canonical(test_cases) === canonical(current.test_cases);
  if (settingsOnly) {
    await scope.setSuiteRunSettings(suiteId, settings);
    await scope.touch();
    return true;
  }
  await scope.saveSuite(suiteId, {
    name: input.name,
    test_cases,
    ...settings,
    saved_by: author.username,
    change: input.change_note?.trim() || describedBy(input, current, test_cases),
  });
  await scope.touch();
  return true;
}

/** How the input says the suite runs, as its columns (what it leaves out stays as it is). */
function runSettingsOf(input: SavedSuiteInputBody): SuiteRunSettings {
  return {
    retries: input.retries,
    trace_policy: input.recording?.trace,
    record_video: input.recording?.video,
    visual_each_case: input.visual_each_case,
  };
}

/** Whether `settings` change any of the suite's. */
function changesRunSettings(current: SavedSuiteRow, settings: SuiteRunSettings): boolean {
  return (Object.keys(settings) as (keyof SuiteRunSettings)[]).some(
    (key) => settings[key] !== undefined && settings[key] !== current[key],
  );
}

/** The cases as stored: relative to the project environment `source_url` is on, else to the default. */
function storedCases(environments: EnvironmentRow[], input: SavedSuiteInputBody): TestCase[] {
  if (!input.source_url) return input.test_cases;
  const source = new URL(input.source_url);
  // The longest base URL the source lies under wins (two environments may share an origin).
  const onOrigin = environments
    .filter((one) => new URL(one.base_url).origin === source.origin)
    .sort((a, b) => underBase(source, b.base_url) - underBase(source, a.base_url));
  const environment = onOrigin[0] ?? environments.find((one) => one.is_default) ?? environments[0];
  return environment ? relativeToEnvironment(input.test_cases, environment.base_url) : input.test_cases;
}

/** How much of `url` a base URL covers: its length when `url` lies under it, else 0. */
function underBase(url: URL, baseUrl: string): number {
  const base = new URL(baseUrl);
  const prefix = base.origin + base.pathname.replace(/\/?$/, '/');
  return `${url.origin}${url.pathname}/`.startsWith(prefix) ? prefix.length : 0;
}
