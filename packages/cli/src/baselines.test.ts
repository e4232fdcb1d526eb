import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BaselineArchive,
  BaselineArchiveSchema,
  ImportBaselinesResultSchema,
  PromoteBaselinesResultSchema,
  PromoteBaselinesSchema,
  type RunCaseResult,
  RunReportSchema,
  RunSavedSuiteSchema,
  VisualBaselinesQuerySchema,
} from '@argus/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from './index';

/**
 * Branches and visual baselines from the command line: `argus run --branch/--visual`, `argus
 * baselines promote` and `argus baselines pull/push`, against a scripted server on 127.0.0.1 that checks each request body against the
 * protocol's schemas (strict: a field the server does not know is refused) and answers what they say.
 */

const passed: RunCaseResult = {
  test_name: 'Home looks as approved',
  test_case_id: null,
  status: 'passed',
  attempts: 1,
  execution_time: 1.5,
  error: null,
  result_id: null,
  failure: null,
  trace_url: null,
  trace_bytes: null,
  repair: null,
  steps: [],
};

/** The run's end as the server reports it: every case passed, two visual changes waiting for review. */
const RUN = RunReportSchema.parse({
  id: 'run-7',
  status: 'completed',
  suite_name: 'Smoke',
  project_id: 'p1',
  suite_id: 's1',
  suite_version: 4,
  environment_id: 'e1',
  environment_name: 'staging',
  url: 'https://staging.shop.example/',
  engine: 'builtin',
  trigger: 'api',
  started_at: null,
  completed_at: null,
  execution_time: 3,
  total_tests: 1,
  passed_tests: 1,
  failed_tests: 0,
  flaky_tests: 0,
  results: [passed],
  not_run: [],
  repairs: null,
  branch: 'feature/x',
  visual: { to_review: 2, review_path: '/history/runs/run-7?tab=review' },
});

const PROJECT = {
  id: 'p1',
  name: 'Shop',
  description: '',
  kind: 'web',
  environments: [
    { id: 'e0', name: 'production', base_url: 'https://shop.example/', is_default: true },
    { id: 'e1', name: 'staging', base_url: 'https://staging.shop.example/', is_default: false },
  ],
  created_at: '2026-11-26T00:00:00Z',
  updated_at: '2026-11-26T00:00:00Z',
};

let server: Server;
let url = '';
/** Every request, `METHOD /path`. */
const seen: string[] = [];
/** The bodies of the run starts and promotions, as the schemas parsed them. */
const bodies: unknown[] = [];
/** What the promote route answers next. */
let promoteAnswer: 'promoted' | 'gone' = 'promoted';

/** A picture's bytes (a PNG's signature, then something of its own), base64, and their SHA-256. */
function picture(text: string) {
  const data = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(text)]);
  return { png: data.toString('base64'), sha256: createHash('sha256').update(data).digest('hex') };
}

const entry = (
  case_name: string,
  check_name: string,
  more: Partial<BaselineArchive['baselines'][0]> = {},
) => ({
  case_name,
  check_name,
  viewport: { width: 1440, height: 900 },
  browser: 'chromium',
  moving_masks: [{ x: 0, y: 0, width: 120, height: 20 }],
  user_masks: [],
  threshold: 0,
  ...picture(`${case_name}|${check_name}|${JSON.stringify(more)}`),
  ...more,
});

/**
 * What the export route answers (in key order): names a file system cannot take as they are, and
 * names that come out the same once made safe.
 */
const ARCHIVE: BaselineArchive = BaselineArchiveSchema.parse({
  format: 'argus-baselines',
  version: 1,
  project: 'Shop',
  environment: 'staging',
  branch: 'feature/x',
  baselines: [
    entry('../../etc', 'page'),
    entry('Checkout', 'page', { viewport: { width: 390, height: 844 } }),
    entry('Checkout', 'page'),
    entry('Checkout', 'page', { browser: 'firefox' }),
    entry('Checkout', 'the/header', { threshold: 0.02, user_masks: [{ x: 1, y: 2, width: 3, height: 4 }] }),
    entry('Checkout', 'the_header'),
    entry('checkout', 'page'),
    entry('con', 'a:b'),
  ],
});
/** The export's next answer (the tests change it), and the import bodies as the schema parsed them. */
let exported: BaselineArchive = ARCHIVE;
const imports: { query: unknown; body: BaselineArchive }[] = [];

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  seen.push(`${req.method} ${req.url}`);
  const token = req.headers.authorization;
  if (token !== 'Bearer argus_good' && token !== 'Bearer argus_run')
    return json(res, 401, { detail: 'No', code: 'INVALID_TOKEN' });
  const address = new URL(req.url ?? '/', 'http://stand-in');
  const query = VisualBaselinesQuerySchema.strict().parse(Object.fromEntries(address.searchParams));
  if (req.method === 'GET' && address.pathname === '/api/projects/p1/visual-baselines/export') {
    if (query.environment_id !== 'e1' && query.environment_id !== 'e0')
      return json(res, 404, { detail: 'Environment not found', code: 'ENVIRONMENT_NOT_FOUND' });
    return json(res, 200, BaselineArchiveSchema.strict().parse({ ...exported, branch: query.branch }));
  }
  if (req.method === 'POST' && address.pathname === '/api/projects/p1/visual-baselines/import') {
    const body = BaselineArchiveSchema.strict().parse(await bodyOf(req));
    for (const one of body.baselines) {
      const sha256 = createHash('sha256').update(Buffer.from(one.png, 'base64')).digest('hex');
      if (sha256 !== one.sha256) return json(res, 422, { detail: 'sha256', code: 'VALIDATION' });
    }
    imports.push({ query, body });
    if (token === 'Bearer argus_run')
      return json(res, 403, { detail: 'This token may only start runs', code: 'TOKEN_SCOPE' });
    const unchanged = body.baselines.filter((one) =>
      ARCHIVE.baselines.some((was) => was.sha256 === one.sha256),
    ).length;
    return json(
      res,
      200,
      ImportBaselinesResultSchema.parse({ added: body.baselines.length - unchanged, unchanged }),
    );
  }
  switch (`${req.method} ${req.url}`) {
    case 'GET /api/projects':
      return json(res, 200, [{ id: 'p1', name: 'Shop', kind: 'web', updated_at: PROJECT.updated_at }]);
    case 'GET /api/projects/p1':
      return json(res, 200, PROJECT);
    case 'GET /api/projects/p1/suites':
      return json(res, 200, [
        { id: 's1', project_id: 'p1', name: 'Smoke', version: 4, test_cases: [{}], versions: [] },
      ]);
    case 'POST /api/projects/p1/suites/s1/runs':
      bodies.push(RunSavedSuiteSchema.strict().parse(await bodyOf(req)));
      return json(res, 202, { test_run_id: 'run-7', environment_id: 'e1', environment_name: 'staging' });
    case 'GET /api/runs/run-7/events':
      return json(res, 502, { detail: 'Bad gateway', code: 'INTERNAL' });
    case 'GET /api/runs/run-7':
      return json(res, 200, RUN);
    case 'POST /api/projects/p1/visual-baselines/promote': {
      const body = PromoteBaselinesSchema.strict().parse(await bodyOf(req));
      bodies.push(body);
      // A write: a `run`-scoped token may not (the server's scopeRefusal), nor promote without `edit`.
      if (token === 'Bearer argus_run')
        return json(res, 403, { detail: 'This token may only start runs', code: 'TOKEN_SCOPE' });
      if (promoteAnswer === 'gone')
        return json(res, 404, { detail: 'Project not found', code: 'PROJECT_NOT_FOUND' });
      const promoted = body.environment_id ? 1 : 3;
      return json(res, 200, PromoteBaselinesResultSchema.parse({ promoted }));
    }
    default:
      return json(res, 404, { detail: 'Not found', code: 'NOT_FOUND' });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      json(res, 422, { detail: error.message.slice(0, 300), code: 'VALIDATION' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  bodies.length = 0;
  promoteAnswer = 'promoted';
  exported = ARCHIVE;
  imports.length = 0;
});

async function cli(argv: string[], token = 'argus_good') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({
    argv,
    env: { ARGUS_TOKEN: token },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

const runArgs = (...more: string[]) => [
  'run',
  '--server',
  url,
  '--project',
  'Shop',
  '--suite',
  'Smoke',
  '--env',
  'staging',
  ...more,
];

describe('argus run --branch', () => {
  it('sends the branch in the start body, says it in the running line', async () => {
    const result = await cli(runArgs('--branch', 'feature/x'));
    expect(result.err).toEqual([]);
    expect(bodies).toEqual([{ environment_id: 'e1', branch: 'feature/x' }]);
    expect(result.out[0]).toBe(
      'argus: running "Smoke" v4 (1 case) of "Shop" on staging (https://staging.shop.example/) on branch feature/x, run run-7',
    );
  });

  it('sends no branch without --branch (the default branch), nor for an empty one', async () => {
    await cli(runArgs());
    await cli(runArgs('--branch', ''));
    expect(bodies).toEqual([{ environment_id: 'e1' }, { environment_id: 'e1' }]);
  });

  it('refuses a name that is not a branch name before any request: exit 2, one line', async () => {
    for (const bad of ['feature x', 'fix;rm', `f${'e'.repeat(200)}`]) {
      const result = await cli(runArgs('--branch', bad));
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/^argus: --branch ".*" is not a branch name: .+ \(argus --help\)$/);
    }
    expect((await cli(runArgs('--branch', 'feature x'))).err).toEqual([
      'argus: --branch "feature x" is not a branch name: A branch name holds letters, digits and . _ / - only (argus --help)',
    ]);
    expect(seen).toEqual([]);
  });
});

describe('argus run --visual', () => {
  const summary = 'argus: 1 passed, 0 failed of 1 in 3.0 s; run run-7 completed';
  const review = () => `argus: 2 visual changes to review: ${url}/history/runs/run-7?tab=review`;

  it('exit 1 by default when visual changes wait for review though every case passed, the review link after the summary', async () => {
    const result = await cli(runArgs('--branch', 'feature/x'));
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out.slice(-2)).toEqual([summary, review()]);
    expect((await cli(runArgs('--visual', 'fail'))).code).toBe(1);
  });

  it('exit 0 with --visual=report, the same review line said', async () => {
    const result = await cli(runArgs('--visual=report'));
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out.slice(-2)).toEqual([summary, review()]);
  });

  it('refuses another mode, and --branch or --visual on generate, before any request', async () => {
    const other = await cli(runArgs('--visual=ignore'));
    expect(other).toEqual({
      code: 2,
      out: [],
      err: ['argus: --visual is fail or report, not "ignore" (argus --help)'],
    });
    const generate = await cli([
      'generate',
      '--server',
      url,
      '--project',
      'Shop',
      '--suite',
      'Smoke',
      '--visual=report',
    ]);
    expect(generate.code).toBe(2);
    expect(generate.err[0]).toMatch(/--branch and --visual are options of run/);
    expect(seen).toEqual([]);
  });
});

describe('argus baselines promote', () => {
  const promoteArgs = (...more: string[]) => [
    'baselines',
    'promote',
    '--server',
    url,
    '--project',
    'shop',
    '--branch',
    'feature/x',
    ...more,
  ];

  it('promotes the branch on every environment, or on the one --env names; says how many; exit 0', async () => {
    const all = await cli(promoteArgs());
    expect(all).toEqual({
      code: 0,
      out: ['argus: promoted 3 baselines of branch feature/x to the default branch'],
      err: [],
    });
    const one = await cli(promoteArgs('--env', 'STAGING'));
    expect(one.code).toBe(0);
    expect(one.out).toEqual(['argus: promoted 1 baseline of branch feature/x to the default branch']);
    expect(bodies).toEqual([{ branch: 'feature/x' }, { branch: 'feature/x', environment_id: 'e1' }]);
  });

  it('says the server’s refusals as the other commands do: exit 2, one line', async () => {
    expect(await cli(promoteArgs(), 'argus_run')).toEqual({
      code: 2,
      out: [],
      err: [
        'argus: could not start: the token may not do this (403 TOKEN_SCOPE: This token may only start runs)',
      ],
    });
    promoteAnswer = 'gone';
    const gone = await cli(promoteArgs());
    expect(gone.code).toBe(2);
    expect(gone.err).toEqual([
      'argus: could not start: POST /api/projects/p1/visual-baselines/promote answered 404 PROJECT_NOT_FOUND: Project not found',
    ]);
    const unknown = await cli(promoteArgs('--env', 'qa'));
    expect(unknown.err).toEqual([
      'argus: could not start: unknown environment "qa" in project "Shop" (environments: production, staging)',
    ]);
  });

  it('refuses before any request: no branch, the default branch, a bad name, run options, another command', async () => {
    const refusals: [string[], RegExp][] = [
      [promoteArgs().filter((arg) => arg !== '--branch' && arg !== 'feature/x'), /--branch is required/],
      [[...promoteArgs(), '--branch', '  '], /--branch is required/],
      [[...promoteArgs(), '--branch', 'feature x'], /--branch "feature x" is not a branch name/],
      [promoteArgs('--suite', 'Smoke', '--visual=report'), /baselines promote takes no --suite, --visual/],
      [promoteArgs('--dir', 'x'), /baselines promote takes no --dir/],
      [
        ['baselines', 'fetch', '--server', url],
        /unknown command "baselines fetch": use baselines promote, pull or push/,
      ],
      [['baselines', '--server', url], /baselines needs a command: baselines promote, pull or push/],
    ];
    for (const [argv, reason] of refusals) {
      const result = await cli(argv);
      expect(result.code).toBe(2);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(reason);
    }
    expect(seen).toEqual([]);
  });
});

describe('argus baselines pull/push', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'argus-baselines-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const args = (command: 'pull' | 'push', ...more: string[]) => [
    'baselines',
    command,
    '--server',
    url,
    '--project',
    'Shop',
    '--dir',
    dir,
    ...more,
  ];
  /** Every file under the directory, `/`-separated, sorted. */
  const files = async () =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((one) => one.isFile())
      .map((one) =>
        join(one.parentPath, one.name)
          .slice(dir.length + 1)
          .split('\\')
          .join('/'),
      )
      .sort();

  it('pull writes one PNG a baseline under safe names and baselines.json; push posts back the same archive', async () => {
    const pulled = await cli(args('pull', '--env', 'staging', '--branch', 'feature/x'));
    expect(pulled).toEqual({
      code: 0,
      out: [`argus: wrote 8 baselines of "Shop" staging (branch feature/x) to ${dir}`],
      err: [],
    });
    expect(seen.at(-1)).toBe(
      'GET /api/projects/p1/visual-baselines/export?environment_id=e1&branch=feature%2Fx',
    );
    const names = [
      '______etc/page@1440x900.png',
      'Checkout/page@1440x900.png',
      'Checkout/page@1440x900~2.png',
      'Checkout/page@390x844.png',
      'Checkout/the_header@1440x900.png',
      'Checkout/the_header@1440x900~2.png',
      '_con/a_b@1440x900.png',
      'checkout~2/page@1440x900.png',
    ];
    expect(await files()).toEqual([...names, 'baselines.json'].sort());
    const manifest = JSON.parse(await readFile(join(dir, 'baselines.json'), 'utf8'));
    expect(manifest.baselines.map((b: { file: string }) => b.file)).toEqual([
      '______etc/page@1440x900.png',
      'Checkout/page@390x844.png',
      'Checkout/page@1440x900.png',
      'Checkout/page@1440x900~2.png',
      'Checkout/the_header@1440x900.png',
      'Checkout/the_header@1440x900~2.png',
      'checkout~2/page@1440x900.png',
      '_con/a_b@1440x900.png',
    ]);
    expect(manifest.baselines[1]).not.toHaveProperty('png');
    expect(manifest.baselines[4]).toMatchObject({ check_name: 'the/header', threshold: 0.02 });
    const firefox = await readFile(join(dir, 'Checkout/page@1440x900~2.png'));
    expect(firefox.toString('base64')).toBe(ARCHIVE.baselines[3].png);

    const pushed = await cli(args('push', '--env', 'staging', '--branch', 'feature/x'));
    expect(pushed).toEqual({
      code: 0,
      out: ['argus: pushed 8 baselines to "Shop" staging (branch feature/x): 0 added, 8 unchanged'],
      err: [],
    });
    expect(imports).toEqual([
      { query: { environment_id: 'e1', branch: 'feature/x' }, body: { ...ARCHIVE, branch: 'feature/x' } },
    ]);
  });

  it('push sends a picture changed in the directory with its own SHA-256; pull on the default environment and branch', async () => {
    await cli(args('pull'));
    expect(seen.at(-1)).toBe('GET /api/projects/p1/visual-baselines/export?environment_id=e0');
    await writeFile(join(dir, 'Checkout/page@390x844.png'), Buffer.from(picture('redrawn').png, 'base64'));
    const pushed = await cli(args('push'));
    expect(pushed.out).toEqual([
      'argus: pushed 8 baselines to "Shop" production (default branch): 1 added, 7 unchanged',
    ]);
    expect(imports[0].query).toEqual({ environment_id: 'e0', branch: '' });
    expect(imports[0].body.baselines[1]).toMatchObject(picture('redrawn'));
  });

  it('pull removes the pictures an earlier pull wrote that are no longer baselines, and nothing else', async () => {
    await cli(args('pull'));
    await writeFile(join(dir, 'README.md'), 'our baselines\n');
    exported = { ...ARCHIVE, baselines: ARCHIVE.baselines.slice(1, 2) };
    expect((await cli(args('pull'))).out).toEqual([
      `argus: wrote 1 baseline of "Shop" production (default branch) to ${dir}`,
    ]);
    expect(await files()).toEqual(['Checkout/page@390x844.png', 'README.md', 'baselines.json']);
  });

  it('refuses before any request: no --dir, run options; a missing or hand-broken baselines.json', async () => {
    const refusals: [string[], RegExp][] = [
      [args('pull').filter((arg) => arg !== '--dir' && arg !== dir), /--dir is required/],
      [args('push', '--suite', 'Smoke'), /baselines push takes no --suite/],
      [args('pull', '--branch', 'feature x'), /--branch "feature x" is not a branch name/],
      [
        ['run', '--server', url, '--project', 'Shop', '--suite', 'Smoke', '--dir', dir],
        /--dir is an option of baselines pull and push/,
      ],
    ];
    for (const [argv, reason] of refusals) {
      const result = await cli(argv);
      expect(result.code).toBe(2);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(reason);
    }
    expect(seen).toEqual([]);
    const empty = await mkdtemp(join(tmpdir(), 'argus-baselines-'));
    const missing = await cli(['baselines', 'push', '--server', url, '--project', 'Shop', '--dir', empty]);
    expect(missing).toEqual({
      code: 2,
      out: [],
      err: [`argus: ${join(empty, 'baselines.json')} not found: write it with argus baselines pull`],
    });
    const manifest = {
      ...ARCHIVE,
      baselines: [{ ...ARCHIVE.baselines[0], png: undefined, file: '../outside.png' }],
    };
    await writeFile(join(empty, 'baselines.json'), JSON.stringify(manifest));
    const outside = await cli(['baselines', 'push', '--server', url, '--project', 'Shop', '--dir', empty]);
    expect(outside.err).toEqual([
      `argus: baselines.json names "../outside.png": a file must be a path inside ${empty}`,
    ]);
    await writeFile(join(empty, 'baselines.json'), '{"format":"zip"}');
    const broken = await cli(['baselines', 'push', '--server', url, '--project', 'Shop', '--dir', empty]);
    expect(broken.err[0]).toMatch(/baselines.json is not a baselines file at format: /);
    expect(seen).toEqual([]);
    await rm(empty, { recursive: true, force: true });
  });

  it('says the server’s refusals as the other commands do: exit 2, one line', async () => {
    await cli(args('pull'));
    expect(await cli(args('push'), 'argus_run')).toEqual({
      code: 2,
      out: [],
      err: [
        'argus: could not start: the token may not do this (403 TOKEN_SCOPE: This token may only start runs)',
      ],
    });
    const unknown = await cli(args('pull', '--env', 'qa'));
    expect(unknown.err).toEqual([
      'argus: could not start: unknown environment "qa" in project "Shop" (environments: production, staging)',
    ]);
  });
});
