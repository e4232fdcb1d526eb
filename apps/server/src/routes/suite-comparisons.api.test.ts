/**
 * Regenerate and compare through the real server, on a notes app of its own in two versions (v2 archives
 * notes and has no search): a suite generated and saved on v1, then regenerated on v2, shows exactly the
 * archiving as added and the search as removed, the rest unchanged (but a case edited by hand: curated,
 * and changed by its edit); accepting saves one version; another
 * organization's suite or comparison is 404; a save in between makes the accept a conflict.
 */
import {
  SavedSuiteSchema,
  type SuiteCaseChange,
  type SuiteComparison,
  SuiteComparisonSchema,
} from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotesApp, serveNotesApp } from '../suite-compare/notes-app';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

/** Whether a case tests the behaviour: its steps name the control only that behaviour uses. */
const uses = (change: SuiteCaseChange, control: RegExp) =>
  [...(change.saved?.steps ?? []), ...(change.generated?.steps ?? [])].some((line) => control.test(line));

describe('regenerating a saved suite and comparing it by behaviour', () => {
  let app: NotesApp;
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let ann: { token: string };
  let ben: { token: string };
  let projectId = '';
  let suiteId = '';
  let comparison: SuiteComparison;

  beforeAll(async () => {
    app = await serveNotesApp();
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      // One page, its behaviours explored with the default budgets (a smaller one leaves out states on
      // one version it reached on the other, and a case's checks with them); checked once as runs run them.
      EXPLORE_MAX_PAGES: '1',
      GENERATION_CHECK_RUNS: '1',
    });
    api = client(server);
    ann = await api.signUp('ann');
    ben = await api.signUp('ben');
    const project = await api.call('POST', '/api/projects', {
      token: ann.token,
      json: { name: 'Notes', kind: 'web', environments: [{ name: 'local', base_url: `${app.url}/` }] },
    });
    expect(project.status, JSON.stringify(project.data)).toBe(201);
    projectId = project.data.id;
    const generated = await api.call('POST', `/api/projects/${projectId}/generations`, {
      token: ann.token,
      json: { suite_name: 'Notes' },
    });
    expect(generated.status, JSON.stringify(generated.data)).toBe(201);
    suiteId = generated.data.suite.id;
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await app?.close();
  });

  it('shows the behaviour v2 added and the one it removed, and nothing else, as changes', async () => {
    // A person edits one case by hand first (a screenshot at its end): it is curated, and changed.
    const saved = SavedSuiteSchema.parse(
      (await api.call('GET', `/api/projects/${projectId}/suites/${suiteId}`, { token: ann.token })).data,
    );
    const editedIndex = saved.test_cases.findIndex((testCase) =>
      testCase.steps.some((line) => /"Delete"/.test(line)),
    );
    expect(editedIndex).toBeGreaterThanOrEqual(0);
    const test_cases = saved.test_cases.map((testCase, index) =>
      index === editedIndex ? { ...testCase, steps: [...testCase.steps, 'Take screenshot'] } : testCase,
    );
    const edit = await api.call('PUT', `/api/projects/${projectId}/suites/${suiteId}`, {
      token: ann.token,
      json: { name: saved.name, test_cases, base_version: 1 },
    });
    expect(edit.status, JSON.stringify(edit.data)).toBe(200);
    app.setVersion(2);
    const answer = await api.call('POST', `/api/projects/${projectId}/suites/${suiteId}/regenerate`, {
      token: ann.token,
      json: {},
    });
    expect(answer.status, JSON.stringify(answer.data)).toBe(201);
    comparison = SuiteComparisonSchema.parse(answer.data);
    const summary = comparison.changes
      .map((c) => `${c.kind}: ${c.behaviour}${c.diff.map((d) => `\n  ${d.op} ${d.line}`).join('')}`)
      .join('\n');
    const added = comparison.changes.filter((change) => change.kind === 'added');
    const removed = comparison.changes.filter((change) => change.kind === 'removed');
    expect(added.length, summary).toBeGreaterThan(0);
    expect(removed.length, summary).toBeGreaterThan(0);
    expect(
      added.every((change) => uses(change, /"Archive"/)),
      summary,
    ).toBe(true);
    expect(
      removed.every((change) => uses(change, /Search/i)),
      summary,
    ).toBe(true);
    // The case edited by hand matched its behaviour, changed by the edit, and is curated; every other
    // saved case matched its behaviour on v2 with the same steps.
    const edited = comparison.changes.find((change) => change.saved_index === editedIndex);
    expect(edited, summary).toMatchObject({ kind: 'changed', curated: true });
    expect(edited?.diff.filter((line) => line.op !== 'same')).toEqual([
      {
        op: 'removed',
        line: 'Take screenshot',
        before: test_cases[editedIndex].steps.length - 1,
        after: null,
      },
    ]);
    expect(comparison.changes.filter((change) => change.curated)).toEqual([edited]);
    const others = comparison.changes.filter(
      (change) => change !== edited && change.kind !== 'added' && change.kind !== 'removed',
    );
    expect(others.length, summary).toBeGreaterThan(0);
    expect(
      others.every((change) => change.kind === 'unchanged'),
      summary,
    ).toBe(true);
    // Nothing is saved by a comparison, and the generation's pending run is not left in the project.
    const suite = SavedSuiteSchema.parse(
      (await api.call('GET', `/api/projects/${projectId}/suites/${suiteId}`, { token: ann.token })).data,
    );
    expect(suite.version).toBe(2);
    expect(comparison.suite_version).toBe(2);
    const read = await api.call(
      'GET',
      `/api/projects/${projectId}/suites/${suiteId}/comparisons/${comparison.id}`,
      { token: ann.token },
    );
    expect(read.status).toBe(200);
    expect(SuiteComparisonSchema.parse(read.data)).toEqual(comparison);
  }, 240_000);

  it('answers 404 for another organization, and names a key the comparison does not hold', async () => {
    const path = `/api/projects/${projectId}/suites/${suiteId}/comparisons/${comparison.id}`;
    const foreign = await api.call('GET', path, { token: ben.token });
    expect(foreign.status).toBe(404);
    const foreignAccept = await api.call('POST', `${path}/accept`, {
      token: ben.token,
      json: { keys: [comparison.changes[0].key] },
    });
    expect(foreignAccept.status).toBe(404);
    const foreignRegenerate = await api.call(
      'POST',
      `/api/projects/${projectId}/suites/${suiteId}/regenerate`,
      {
        token: ben.token,
        json: {},
      },
    );
    expect(foreignRegenerate.status).toBe(404);
    const missing = await api.call(
      'GET',
      `/api/projects/${projectId}/suites/${suiteId}/comparisons/00000000-0000-4000-8000-000000000000`,
      { token: ann.token },
    );
    expect(missing.status).toBe(404);
    expect(missing.data.code).toBe('COMPARISON_NOT_FOUND');
    const unknown = await api.call('POST', `${path}/accept`, { token: ann.token, json: { keys: ['s999'] } });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.data)).toContain('s999');
    const unchanged = comparison.changes.filter((change) => change.kind === 'unchanged').map((c) => c.key);
    const nothing = await api.call('POST', `${path}/accept`, { token: ann.token, json: { keys: unchanged } });
    expect(nothing.status).toBe(422);
  });

  it('saves the accepted changes as one new version, and refuses an accept over a version saved since', async () => {
    const added = comparison.changes.filter((change) => change.kind === 'added');
    const removed = comparison.changes.filter((change) => change.kind === 'removed');
    const keys = [...added, ...removed].map((change) => change.key);
    const path = `/api/projects/${projectId}/suites/${suiteId}/comparisons/${comparison.id}/accept`;
    const accepted = await api.call('POST', path, { token: ann.token, json: { keys } });
    expect(accepted.status, JSON.stringify(accepted.data)).toBe(200);
    const suite = SavedSuiteSchema.parse(accepted.data);
    expect(suite.version).toBe(3);
    expect(suite.versions[0].change).toBe(
      `Regenerated: ${added.length} added, ${removed.length} removed, 0 changed`,
    );
    expect(suite.test_cases.some((testCase) => testCase.steps.some((line) => /"Archive"/.test(line)))).toBe(
      true,
    );
    expect(suite.test_cases.some((testCase) => testCase.steps.some((line) => /Search/i.test(line)))).toBe(
      false,
    );
    // The comparison was of version 2: the suite is at 3 now, so a second accept is a conflict.
    const again = await api.call('POST', path, { token: ann.token, json: { keys } });
    expect(again.status).toBe(409);
    expect(again.data.code).toBe('SUITE_VERSION_CONFLICT');
  });
});
