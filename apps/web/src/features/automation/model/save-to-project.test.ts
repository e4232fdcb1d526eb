import { type SavedSuite, TestCaseSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { checkSave, initialDraft, NEW_SUITE, savedText, suiteLabel } from './save-to-project';

const cases = [
  TestCaseSchema.parse({
    test_name: 'Tickets are listed',
    url: 'http://desk.test/',
    steps: ['Navigate to /tickets', 'Verify heading "Tickets" is visible'],
  }),
];

function suite(overrides: Partial<SavedSuite> = {}): SavedSuite {
  return {
    id: 's1',
    project_id: 'p1',
    name: 'Tickets',
    version: 3,
    test_cases: cases,
    retries: 0,
    recording: { trace: 'on-failure', video: false },
    visual_each_case: false,
    versions: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('saving the test cases to a project', () => {
  it('opens on the project chosen for the work, as a new suite', () => {
    expect(initialDraft('p1')).toEqual({ projectId: 'p1', suiteId: NEW_SUITE, name: '' });
    expect(initialDraft(null).projectId).toBe('');
  });

  it('saves a new suite under its name, with the page the cases were made for', () => {
    const check = checkSave(
      { projectId: 'p1', suiteId: NEW_SUITE, name: '  Smoke  ' },
      [suite()],
      cases,
      'http://desk.test/',
    );
    expect(check).toEqual({
      problem: null,
      request: {
        projectId: 'p1',
        suite: { name: 'Smoke', test_cases: cases, source_url: 'http://desk.test/' },
      },
    });
  });

  it('saves a new version of a chosen suite, from the version the list showed', () => {
    const check = checkSave({ projectId: 'p1', suiteId: 's1', name: 'ignored' }, [suite()], cases, null);
    expect(check.request).toEqual({
      projectId: 'p1',
      suiteId: 's1',
      suite: { name: 'Tickets', test_cases: cases, base_version: 3 },
    });
  });

  it('says what is missing, in order: cases, project, suite or name', () => {
    const draft = { projectId: 'p1', suiteId: NEW_SUITE, name: 'Smoke' };
    expect(checkSave(draft, [], [], null).problem).toEqual({
      field: 'cases',
      text: 'There are no test cases to save',
    });
    expect(checkSave({ ...draft, projectId: '' }, [], cases, null).problem?.text).toBe('Choose a project');
    expect(checkSave({ ...draft, name: ' ' }, [], cases, null).problem).toEqual({
      field: 'name',
      text: 'Give the suite a name',
    });
    expect(checkSave({ ...draft, name: 'x'.repeat(201) }, [], cases, null).problem?.field).toBe('name');
    expect(checkSave({ ...draft, suiteId: 'gone' }, [suite()], cases, null).problem).toEqual({
      field: 'suite',
      text: 'Choose a suite',
    });
    // The list not loaded yet: the chosen suite cannot be saved over.
    expect(checkSave({ ...draft, suiteId: 's1' }, undefined, cases, null).problem?.field).toBe('suite');
  });

  it("refuses a new suite named like one of the project's, pointing to a new version instead", () => {
    expect(
      checkSave({ projectId: 'p1', suiteId: NEW_SUITE, name: 'tickets' }, [suite()], cases, null).problem
        ?.text,
    ).toBe('A suite named "Tickets" already exists: choose it to save a new version');
  });

  it('leaves out a page address that is not an http(s) URL', () => {
    const check = checkSave({ projectId: 'p1', suiteId: NEW_SUITE, name: 'A' }, [], cases, 'desk.test');
    expect(check.request?.suite).not.toHaveProperty('source_url');
  });

  it('names suites with their version and size, and the toast names the project', () => {
    expect(suiteLabel(suite())).toBe('Tickets (v3, 1 test)');
    expect(suiteLabel(suite({ version: 1, test_cases: [...cases, ...cases] }))).toBe('Tickets (v1, 2 tests)');
    expect(savedText('Desk')).toBe('Suite saved to Desk');
  });
});
