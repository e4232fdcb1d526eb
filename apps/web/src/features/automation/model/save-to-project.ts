import { httpUrlProblem, type SavedSuite, type SavedSuiteInput, type TestCase } from '@argus/protocol';

/**
 * Saving the screen's test cases into a project (docs/PROJECTS.md#saved-suites): as a new suite under
 * a name, or as the next version of one of the project's suites. The URLs of the page they were made
 * for are stored relative to the project's matching environment (the server does it, `source_url`).
 */

/** The suite choice meaning "a new suite". */
export const NEW_SUITE = '';

export const SUITE_NAME_MAX = 200;

export interface SaveDraft {
  /** '' while none is chosen. */
  projectId: string;
  /** A suite of the project (a new version of it), or NEW_SUITE. */
  suiteId: string;
  /** The new suite's name. */
  name: string;
}

/** What the save sends (the projects feature's save: a new suite, or a version of `suiteId`). */
export interface SaveSuiteRequest {
  projectId: string;
  suiteId?: string;
  suite: SavedSuiteInput;
}

export interface SaveProblem {
  field: 'project' | 'suite' | 'name' | 'cases';
  text: string;
}

export type SaveCheck =
  | { problem: SaveProblem; request: null }
  | { problem: null; request: SaveSuiteRequest };

/** The draft a form opens with: the project chosen for the work, else none; a new suite. */
export function initialDraft(projectId: string | null): SaveDraft {
  return { projectId: projectId ?? '', suiteId: NEW_SUITE, name: '' };
}

function problem(field: SaveProblem['field'], text: string): SaveCheck {
  return { problem: { field, text }, request: null };
}

/**
 * Checks a save before it is sent: cases to save, a project, then a name that is there and not
 * another suite's (the server checks again), or a suite of the project (its version is the base, so
 * a save over someone else's newer version is refused, 409).
 */
export function checkSave(
  draft: SaveDraft,
  suites: readonly SavedSuite[] | undefined,
  testCases: readonly TestCase[],
  sourceUrl: string | null,
): SaveCheck {
  if (testCases.length === 0) return problem('cases', 'There are no test cases to save');
  if (!draft.projectId) return problem('project', 'Choose a project');
  const source = sourceUrl && httpUrlProblem(sourceUrl) === null ? { source_url: sourceUrl } : {};
  const test_cases = [...testCases];
  if (draft.suiteId !== NEW_SUITE) {
    const suite = suites?.find((s) => s.id === draft.suiteId);
    if (!suite) return problem('suite', 'Choose a suite');
    return {
      problem: null,
      request: {
        projectId: draft.projectId,
        suiteId: suite.id,
        suite: { name: suite.name, test_cases, base_version: suite.version, ...source },
      },
    };
  }
  const name = draft.name.trim();
  if (!name) return problem('name', 'Give the suite a name');
  if (name.length > SUITE_NAME_MAX)
    return problem('name', `Keep the name under ${SUITE_NAME_MAX} characters`);
  const taken = suites?.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (taken)
    return problem('name', `A suite named "${taken.name}" already exists: choose it to save a new version`);
  return { problem: null, request: { projectId: draft.projectId, suite: { name, test_cases, ...source } } };
}

/** A suite in the list: its name, version and size. */
export function suiteLabel(suite: SavedSuite): string {
  const count = suite.test_cases.length;
  return `${suite.name} (v${suite.version}, ${count} test${count === 1 ? '' : 's'})`;
}

/** The toast of a save. */
export function savedText(projectName: string): string {
  return `Suite saved to ${projectName}`;
}
