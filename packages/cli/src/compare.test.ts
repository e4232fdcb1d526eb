import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  RegenerateRequestSchema,
  type RunCaseResult,
  type RunReport,
  RunReportSchema,
  RunSavedSuiteSchema,
  type SuiteComparison,
  SuiteComparisonSchema,
  TestCaseSchema,
} from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './index';

/**
 * `argus generate --compare` and what `argus run` says of repairs, against a scripted server on
 * 127.0.0.1 that checks each request body against the protocol's schemas and answers what they say.
 */

const note = (test_name: string, steps: string[]) => TestCaseSchema.parse({ test_name, steps });
const ADD = note('Adding a note', ['Fill "New note" with "Milk"', 'Click button "Add"']);
const SEARCH = note('Searching notes', ['Fill "Search" with "zzz"', 'Verify text "Milk" is not visible']);
const ARCHIVE = note('Archiving a note', [
  'Click button "Archive" in "Milk"',
  'Verify text "Archived" is visible',
]);
const DELETE = note('Deleting a note', ['Click button "Delete" in "Milk"']);
const DELETE_V2 = note('Deleting a note', ['Click button "Remove" in "Milk"']);

const COMPARISON: SuiteComparison = SuiteComparisonSchema.parse({
  id: 'c1',
  project_id: 'p1',
  suite_id: 's1',
  suite_version: 3,
  environment_id: 'e1',
  engine: 'builtin',
  changes: [
    {
      key: 's0',
      kind: 'unchanged',
      behaviour: 'Adding a note',
      saved: ADD,
      saved_index: 0,
      generated: ADD,
      diff: [],
      curated: false,
    },
    {
      key: 's1',
      kind: 'removed',
      behaviour: 'Searching notes',
      saved: SEARCH,
      saved_index: 1,
      generated: null,
      diff: [],
      curated: false,
    },
    {
      key: 's2',
      kind: 'changed',
      behaviour: 'Deleting a note',
      saved: DELETE,
      saved_index: 2,
      generated: DELETE_V2,
      diff: [
        { op: 'removed', line: DELETE.steps[0], before: 0, after: null },
        { op: 'added', line: DELETE_V2.steps[0], before: null, after: 0 },
      ],
      curated: true,
    },
    {
      key: 'g3',
      kind: 'added',
      behaviour: 'Archiving a note',
      saved: null,
      saved_index: null,
      generated: ARCHIVE,
      diff: [],
      curated: false,
    },
  ],
  counts: { added: 1, removed: 1, changed: 1, unchanged: 1 },
  created_at: '2026-11-29T00:00:00Z',
});

const failedCase: RunCaseResult = {
  test_name: 'Deleting a note',
  test_case_id: null,
  status: 'failed',
  attempts: 1,
  execution_time: 2,
  error: 'Button "Delete" was not found',
  result_id: null,
  failure: null,
  trace_url: null,
  trace_bytes: null,
  repair: {
    id: 'r1',
    verdict: 'repair',
    status: 'proposed',
    summary: 'Button "Delete" is gone; button "Remove" in the same item removes it as "Delete" did',
    review_url: '/history/runs/run-9?tab=repairs',
  },
  steps: [],
};
const bugCase: RunCaseResult = {
  ...failedCase,
  test_name: 'Adding a note',
  repair: { id: 'r2', verdict: 'bug', status: 'none', summary: 'POST /notes answered 500', review_url: '' },
};

const RUN: RunReport = RunReportSchema.parse({
  id: 'run-9',
  status: 'completed',
  suite_name: 'Notes',
  project_id: 'p1',
  suite_id: 's1',
  suite_version: 3,
  environment_id: 'e1',
  environment_name: 'staging',
  url: 'https://notes.example/',
  engine: 'builtin',
  trigger: 'api',
  started_at: null,
  completed_at: null,
  execution_time: 4,
  total_tests: 2,
  passed_tests: 0,
  failed_tests: 2,
  flaky_tests: 0,
  results: [failedCase, bugCase],
  not_run: [],
  repairs: { proposed: 1, bugs: 1, review_path: '/history/runs/run-9?tab=repairs' },
});

let server: Server;
let url = '';
/** What the next regenerate answers: the comparison, or a failed generation. */
let regenerateAnswer: 'comparison' | 'failed' = 'comparison';
const bodies: unknown[] = [];

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

const PROJECT = {
  id: 'p1',
  name: 'Notes',
  description: '',
  kind: 'web',
  environments: [
    { id: 'e0', name: 'production', base_url: 'https://notes.example/', is_default: true },
    { id: 'e1', name: 'staging', base_url: 'https://staging.notes.example/', is_default: false },
  ],
  created_at: '2026-11-26T00:00:00Z',
  updated_at: '2026-11-26T00:00:00Z',
};

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.headers.authorization !== 'Bearer argus_good')
    return json(res, 401, { detail: 'No', code: 'INVALID_TOKEN' });
  switch (`${req.method} ${req.url}`) {
    case 'GET /api/projects':
      return json(res, 200, [{ id: 'p1', name: 'Notes', kind: 'web', updated_at: PROJECT.updated_at }]);
    case 'GET /api/projects/p1':
      return json(res, 200, PROJECT);
    case 'GET /api/projects/p1/suites':
      return json(res, 200, [
        {
          id: 's1',
          project_id: 'p1',
          name: 'Nightly',
          version: 3,
          test_cases: [ADD, SEARCH, DELETE],
          versions: [],
        },
      ]);
    case 'POST /api/projects/p1/suites/s1/regenerate': {
      const body = RegenerateRequestSchema.strict().parse(await bodyOf(req));
      bodies.push(body);
      if (regenerateAnswer === 'failed')
        return json(res, 502, { detail: 'Nothing was explored', code: 'GENERATION_FAILED' });
      return json(res, 201, COMPARISON);
    }
    case 'POST /api/projects/p1/suites/s1/runs':
      bodies.push(RunSavedSuiteSchema.strict().parse(await bodyOf(req)));
      return json(res, 202, { test_run_id: 'run-9', environment_id: 'e1', environment_name: 'staging' });
    case 'GET /api/runs/run-9/events':
      return json(res, 502, { detail: 'Bad gateway', code: 'INTERNAL' });
    case 'GET /api/runs/run-9':
      return json(res, 200, RUN);
    default:
      return json(res, 404, { detail: 'Not found', code: 'NOT_FOUND' });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => json(res, 400, { detail: error.message, code: 'VALIDATION' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({
    argv,
    env: { ARGUS_TOKEN: 'argus_good' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

const COMPARE = [
  'generate',
  '--compare',
  '--server',
  '',
  '--project',
  'notes',
  '--suite',
  'Nightly',
  '--env',
  'staging',
];
const compareArgs = () => COMPARE.map((arg) => (arg === '' ? url : arg));

describe('argus generate --compare', () => {
  it('regenerates on the environment, prints the summary, each change and the review link, exit 0', async () => {
    regenerateAnswer = 'comparison';
    bodies.length = 0;
    const result = await cli(compareArgs());
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(bodies).toEqual([{ environment_id: 'e1' }]);
    expect(result.out).toEqual([
      'argus: regenerating on "Notes"/staging (https://staging.notes.example/) to compare with "Nightly" v3; this takes a minute or more',
      'argus: 1 unchanged, 1 changed, 1 added, 1 removed',
      '  + Archiving a note: no saved case covers it',
      '  - Searching notes: the app no longer shows it',
      '  ~ Deleting a note: 2 step lines differ (edited by hand: never replaced without a choice)',
      'argus: the app has 1 behaviour no case covers',
      'argus: 1 saved case tests a behaviour the app no longer shows',
      `argus: review and accept the changes: ${url}/projects/p1/suites/s1/comparisons/c1`,
    ]);
  });

  it('exit 1 when the generation fails, 2 when --compare is given what it does not take', async () => {
    regenerateAnswer = 'failed';
    const failed = await cli(compareArgs());
    expect(failed.code).toBe(1);
    expect(failed.out.at(-1)).toBe('argus: the generation failed: Nothing was explored');
    const withUrl = await cli([...compareArgs(), '--url', '/notes']);
    expect(withUrl.code).toBe(2);
    expect(withUrl.err[0]).toMatch(/--compare regenerates the whole environment/);
    const onRun = await cli([
      'run',
      '--compare',
      '--server',
      url,
      '--project',
      'Notes',
      '--suite',
      'Nightly',
    ]);
    expect(onRun.code).toBe(2);
    expect(onRun.err[0]).toMatch(/--compare are options of generate/);
  });
});

describe('argus run and repairs', () => {
  it('says the repair proposed for a failed case with its review link, the bug, and how many wait; still exit 1', async () => {
    const result = await cli([
      'run',
      '--server',
      url,
      '--project',
      'Notes',
      '--suite',
      'Nightly',
      '--env',
      'staging',
    ]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out.slice(-4)).toEqual([
      'argus: 0 passed, 2 failed of 2 in 4.0 s; run run-9 completed',
      `  ✗ Deleting a note: repair proposed: Button "Delete" is gone; button "Remove" in the same item removes it as "Delete" did — review: ${url}/history/runs/run-9?tab=repairs`,
      '  ✗ Adding a note: looks like a bug: POST /notes answered 500',
      `argus: 1 repair waits for review: ${url}/history/runs/run-9?tab=repairs`,
    ]);
  });
});
