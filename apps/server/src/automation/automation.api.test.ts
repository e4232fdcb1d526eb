import { parseStep } from '@argus/engine';
import type { StepUpdate } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../../fixtures/site/serve';
import { client, declareOversizedBody } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import { type RunningServer, spawnServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

/** The fixture site's planted defects, and the generated cases that must fail because of them. */
const PLANTED = [
  {
    test: /^Page loads cleanly: System status$/,
    error: /Console error .*status\.html: Status widget failed to load/,
  },
  { test: /^No broken links: About/, error: /Broken link "Our history" → .*history\.html answered 404/ },
  { test: /^Images have alt text: Meet the team$/, error: /Image without alt text: images\/team-luis\.svg/ },
  { test: /^Accessibility \(axe-core\): Meet the team$/, error: /axe-core image-alt \(critical\)/ },
];

describe('automation over the socket, against the fixture site', () => {
  let server: RunningServer;
  let site: Awaited<ReturnType<typeof serveFixtureSite>>;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let socket: TestSocket;
  let cases: { test_name: string; steps: string[]; category: string }[] = [];
  let runId: string;
  /** Alice's automation session: a run names a session of its sender's, or none. */
  let sessionId: string;

  beforeAll(async () => {
    site = await serveFixtureSite();
    // The production default: a generation's cases are checked as runs run them before they are handed out.
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '2',
      GENERATION_CHECK_RUNS: '2',
    });
    api = client(server);
    alice = await api.signUp('alice');
    const session = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'Automation: fixture', session_type: 'automation', url: `${site.url}/` },
    });
    sessionId = session.data.id;
    socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    await socket.next('connection_established');
  });
  /** A second tab of alice's that opens now and asks where her work stands. */
  async function joinLate() {
    const late = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    await late.next('connection_established');
    late.send('get_automation_status', {});
    return { late, joined: await late.next('automation_in_progress', 2_000) };
  }
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
    await site?.close();
  });

  it('generates a real first-pass suite: at least 8 distinct cases, every step in the step language', async () => {
    socket.send('generate_test_cases', { url: `${site.url}/`, session_id: sessionId });
    expect((await socket.next('generation_started')).data.url).toBe(`${site.url}/`);
    // The generation now also runs its suite twice as runs run it before handing it out.
    const generated = await socket.next('test_cases_generated', 180_000);
    expect(socket.all.some((m) => m.type === 'progress_update')).toBe(true);
    expect(generated.data.engine).toMatch(/rule-based/);
    cases = generated.data.test_cases as typeof cases;
    runId = generated.data.test_run_id as string;
    expect(new Set(cases.map((c) => c.test_name)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(8);
    const categories = new Set(cases.map((c) => c.category));
    for (const category of [
      'Smoke',
      'Navigation',
      'Forms',
      'Links',
      'Accessibility',
      'Responsive',
      'Functional',
    ]) {
      expect(categories, category).toContain(category);
    }
    for (const c of cases) {
      expect(c).toMatchObject({
        id: expect.any(String),
        description: expect.any(String),
        priority: expect.any(String),
      });
      expect(c).toHaveProperty('expected_result');
      expect(c).toHaveProperty('url');
      for (const step of c.steps) expect(() => parseStep(step), step).not.toThrow();
    }
    // Checked as runs run them before they were handed out: the cases aimed at the planted defects
    // failed every run at a page check and were kept as reporting defects; nothing was dropped.
    const checked = (generated.data.exploration as { checked?: Record<string, unknown> } | undefined)
      ?.checked;
    expect(checked).toMatchObject({ runs: 2, parallelism: 2, dropped: [], unchecked: 0 });
    expect((checked?.defects as unknown[] | undefined)?.length).toBe(PLANTED.length);
    // Each planted defect has a case aimed at it.
    for (const planted of PLANTED)
      expect(
        cases.some((c) => planted.test.test(c.test_name)),
        String(planted.test),
      ).toBe(true);
  }, 240_000);

  it('runs the suite live: passes what works and fails exactly the planted defects, naming them', async () => {
    socket.all.length = 0;
    socket.send('run_all_tests', {
      url: `${site.url}/`,
      test_cases: cases,
      test_mode: 'full',
      session_id: sessionId,
      test_run_id: runId,
    });
    const started = await socket.next('execution_started');
    expect(started.data).toEqual({
      total_tests: cases.length,
      test_run_id: runId,
      engine: 'built-in (rule-based)',
    });
    const done = await socket.next('all_tests_completed', 300_000);

    const failed = socket.all.filter((m) => m.type === 'test_failed').map((m) => m.data);
    const passed = socket.all.filter((m) => m.type === 'test_completed').map((m) => m.data);
    expect(failed.length + passed.length).toBe(cases.length);
    for (const planted of PLANTED) {
      const hit = failed.find((f) => planted.test.test(String(f.test_name)));
      expect(hit, String(planted.test)).toBeDefined();
      expect(String(hit?.error)).toMatch(planted.error);
    }
    const unexpected = failed.filter((f) => !PLANTED.some((p) => p.test.test(String(f.test_name))));
    expect(unexpected.map((f) => `${f.test_name}: ${f.error}`)).toEqual([]);
    expect(done.data).toMatchObject({ total_tests: cases.length, passed: cases.length - PLANTED.length });

    const progress = socket.all.filter((m) => m.type === 'test_progress');
    expect(progress).toHaveLength(cases.length);
    const steps = socket.all
      .filter((m) => m.type === 'step_update')
      .map((m) => m.data.step_data as StepUpdate);
    const finished = steps.filter((s) => s.status !== 'pending');
    expect(steps.some((s) => s.status === 'pending')).toBe(true);
    for (const s of finished) {
      expect(s).toMatchObject({
        step_number: expect.any(Number),
        action: expect.any(String),
        timestamp: expect.any(String),
      });
      expect(
        s.screenshot?.width,
        `screenshot of ${JSON.stringify({ ...s, screenshot: undefined })}`,
      ).toBeGreaterThan(0);
      // JPEG, base64
      expect(Buffer.from(s.screenshot?.base64_data ?? '', 'base64').subarray(0, 3)).toEqual(
        Buffer.from([0xff, 0xd8, 0xff]),
      );
    }
    const firstFailure = failed[0] as { screenshots: { url: string }[] };
    expect(firstFailure.screenshots.length).toBeGreaterThan(0);
  }, 320_000);

  it('recorded the run on the server: results, counts, log and owner-only screenshots', async () => {
    const run = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: alice.token });
    expect(run.status).toBe(200);
    expect(run.data).toMatchObject({
      status: 'completed',
      total_tests: cases.length,
      passed_tests: cases.length - PLANTED.length,
      failed_tests: PLANTED.length,
      session_id: sessionId,
    });
    expect(run.data.test_results).toHaveLength(cases.length);
    expect(run.data.execution_log.length).toBeGreaterThan(cases.length);
    expect(run.data.screenshots_paths.length).toBeGreaterThan(cases.length);

    // Each image opens through its own short-lived signed link; no login token goes in a URL.
    const shotUrl = run.data.screenshots_paths[0] as string;
    expect(shotUrl).toMatch(/^\/api\/screenshots\/[^/]+\/image\?owner=.+&expires=\d+&sig=[\w-]+$/);
    const image = await fetch(`${server.url}${shotUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const bare = shotUrl.split('?')[0];
    expect((await fetch(`${server.url}${bare}?access_token=${alice.token}`)).status).toBe(401);
    expect((await fetch(`${server.url}${bare}`)).status).toBe(401);

    const mallory = await api.signUp('mallory');
    const stolen = await fetch(`${server.url}${bare}`, {
      headers: { authorization: `Bearer ${mallory.token}` },
    });
    expect(stolen.status).toBe(401);
    expect(
      (await api.call('GET', `/api/automation/test-runs/${runId}`, { token: mallory.token })).status,
    ).toBe(404);
    expect(
      (await api.call('GET', `/api/screenshots/test-run/${runId}`, { token: mallory.token })).status,
    ).toBe(404);

    const list = await api.call('GET', `/api/screenshots/test-run/${runId}`, { token: alice.token });
    expect(list.data.length).toBe(run.data.screenshots_paths.length);
    const name = encodeURIComponent(cases[0].test_name);
    const forCase = await api.call('GET', `/api/screenshots/test-case/${runId}/${name}`, {
      token: alice.token,
    });
    expect(forCase.data.length).toBeGreaterThan(0);
    expect(
      forCase.data.every((s: { test_case_name: string }) => s.test_case_name === cases[0].test_name),
    ).toBe(true);
  });

  it('stops a run within 2 s: execution_stopping, then execution_stopped, and records it as failed', async () => {
    socket.all.length = 0;
    socket.messages.length = 0;
    socket.send('run_all_tests', {
      url: `${site.url}/`,
      test_cases: cases,
      test_mode: 'full',
      session_id: sessionId,
    });
    const started = await socket.next('execution_started');
    await socket.next('step_update');

    // A tab that opens now (a reload, a second window) is told where the run stands.
    const { late, joined } = await joinLate();
    expect(joined.data).toMatchObject({
      kind: 'running',
      url: `${site.url}/`,
      test_mode: 'full',
      session_id: sessionId,
      test_run_id: started.data.test_run_id,
      total_tests: cases.length,
    });
    expect((joined.data.test_cases as unknown[]).length).toBe(cases.length);
    const { results, active_tests } = joined.data as { results: unknown[]; active_tests: string[] };
    expect(results.length + active_tests.length).toBeGreaterThan(0);
    expect(active_tests.every((name) => cases.some((c) => c.test_name === name))).toBe(true);
    // The steps so far, without their images; stored screenshots by URL, for their owner.
    const steps = joined.data.steps as {
      test_name: string;
      step_data: StepUpdate;
      screenshot_url: string | null;
    }[];
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((s) => !s.step_data.screenshot?.base64_data)).toBe(true);
    // Screenshots are stored a moment after their step: ask again until one is.
    let stored = steps.find((s) => s.screenshot_url);
    for (let tries = 0; !stored && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 200));
      late.send('get_automation_status', {});
      const again = await late.next('automation_in_progress', 2_000);
      stored = (again.data.steps as typeof steps).find((s) => s.screenshot_url);
    }
    // A signed link, made as the status was asked for: it opens without any token.
    const image = await fetch(`${server.url}${stored?.screenshot_url}`);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(stored?.step_data.screenshot?.width).toBeGreaterThan(0);
    late.ws.close(1000);

    const asked = Date.now();
    socket.send('stop_execution', {
      stopId: 's1',
      force: false,
      session_id: sessionId,
      timestamp: new Date().toISOString(),
    });
    await socket.next('execution_stopping', 5_000);
    await socket.next('execution_stopped', 5_000);
    const took = Date.now() - asked;
    expect(took).toBeLessThan(2_000);
    const run = await api.call('GET', `/api/automation/test-runs/${started.data.test_run_id}`, {
      token: alice.token,
    });
    expect(run.data.status).toBe('failed');
    expect(run.data.test_results.length).toBeLessThan(cases.length);
    expect(run.data.execution_log.at(-1).message).toBe('Execution stopped by the user');
  }, 60_000);

  it('refuses targets the policy forbids, with the reason', async () => {
    for (const [url, reason] of [
      ['http://169.254.169.254/latest/meta-data/', /link-local or cloud-metadata/],
      [`${server.url}/api/health`, /is the Argus server itself/],
    ] as const) {
      socket.send('generate_test_cases', { url, session_id: sessionId });
      const error = await socket.next('error', 30_000);
      expect(String(error.data.message)).toMatch(/^Blocked by the target policy: /);
      expect(String(error.data.message)).toMatch(reason);
    }
  }, 70_000);

  it('generates command-focused cases from the same observations', async () => {
    // Only this generation's messages count: one left unread by an earlier test must not stand in
    // for its start.
    socket.messages.length = 0;
    socket.send('command_generate_test_cases', {
      url: `${site.url}/`,
      command: "check that searching for 'shoes' shows results",
      session_id: sessionId,
    });
    await socket.next('generation_started');
    const { late, joined } = await joinLate();
    expect(joined.data).toMatchObject({
      kind: 'generating',
      test_mode: 'command',
      command: "check that searching for 'shoes' shows results",
    });
    expect((joined.data.messages as string[])[0]).toMatch(/^Exploring .* with the builtin/);
    const generated = await socket.next('test_cases_generated', 90_000);
    // The late tab follows along: it hears the same outcome.
    await late.next('test_cases_generated', 5_000);
    late.ws.close(1000);
    const names = (generated.data.test_cases as { test_name: string; command: string }[]).map(
      (c) => c.test_name,
    );
    expect(names.some((n) => /Search finds/.test(n))).toBe(true);
    expect(names.every((n) => !/Accessibility/.test(n))).toBe(true);
    expect((generated.data.test_cases as { command: string }[])[0].command).toMatch(/shoes/);
  }, 100_000);
});

describe('automation records over HTTP', () => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const PNG_1x1 =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('creates, updates and reads a test run, its results and screenshots, owner-scoped', async () => {
    const alice = await api.signUp('alice');
    const bob = await api.signUp('bob');
    const session = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'Automation: example.com', session_type: 'automation' },
    });
    const created = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: {
        url: 'https://example.com',
        session_id: session.data.id,
        test_cases: { testName: 'one', steps: ['Click "A"'] },
      },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      status: 'pending',
      total_tests: 1,
      test_cases: [{ test_name: 'one' }],
    });
    const id = created.data.id;

    const result = await api.call('POST', '/api/automation/test-results', {
      token: alice.token,
      json: {
        test_run_id: id,
        test_case_name: 'one',
        status: 'failed',
        execution_time: 1.2,
        error_message: "it's broken",
      },
    });
    expect(result.status).toBe(201);
    // A posted result counts in the run's totals.
    expect(
      (await api.call('GET', `/api/automation/test-runs/${id}`, { token: alice.token })).data,
    ).toMatchObject({ passed_tests: 0, failed_tests: 1 });
    const upload = await api.call('POST', '/api/screenshots/upload', {
      token: alice.token,
      json: {
        test_run_id: id,
        test_case_name: 'one',
        step_name: 'Click "A"',
        image_data: `data:image/png;base64,${PNG_1x1}`,
        width: 1,
        height: 1,
      },
    });
    expect(upload.status).toBe(201);
    expect(upload.data).toMatchObject({
      id: expect.any(String),
      url: expect.stringMatching(new RegExp(`^/api/screenshots/${upload.data.id}/image\\?owner=.+&sig=`)),
    });
    const png = await fetch(`${server.url}${upload.data.url}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).toString('base64')).toBe(PNG_1x1);

    const notImage = await api.call('POST', '/api/screenshots/upload', {
      token: alice.token,
      json: { test_run_id: id, test_case_name: 'one', image_data: Buffer.from('<svg/>').toString('base64') },
    });
    expect(notImage.status).toBe(422);
    expect(notImage.data.error).toBe('Validation error');
    // Failures caught before the route runs carry the `error` field as well.
    const garbled = await api.call('POST', '/api/screenshots/upload', {
      token: alice.token,
      body: '{"test_run_id": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbled.status).toBe(400);
    expect(garbled.data).toMatchObject({ code: 'MALFORMED_JSON', error: 'Malformed JSON' });
    const huge = await declareOversizedBody(server.url, '/api/screenshots/upload', 200 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(huge.data).toMatchObject({ detail: 'Request body is too large', error: 'Payload too large' });

    const put = await api.call('PUT', `/api/automation/test-runs/${id}`, {
      token: alice.token,
      json: {
        status: 'completed',
        passed_tests: 0,
        failed_tests: 1,
        execution_time_seconds: 1.2,
        completed_at: new Date().toISOString(),
      },
    });
    expect(put.status).toBe(200);
    expect(put.data).toMatchObject({ status: 'completed', failed_tests: 1 });
    expect(put.data.test_results[0]).toMatchObject({ test_case_name: 'one', error_message: "it's broken" });
    const unsigned = (paths: string[]) => paths.map((path) => path.split('?')[0]);
    expect(unsigned(put.data.screenshots_paths)).toEqual(unsigned([upload.data.url]));

    expect((await api.call('GET', `/api/automation/test-runs/${id}`, { token: bob.token })).status).toBe(404);
    expect(
      (
        await api.call('POST', '/api/automation/test-results', {
          token: bob.token,
          json: { test_run_id: id, test_case_name: 'x', status: 'passed' },
        })
      ).status,
    ).toBe(404);
    const listed = await api.call('GET', `/api/automation/test-runs?session_id=${session.data.id}`, {
      token: alice.token,
    });
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([id]);
    // The list carries each run's results and screenshots too.
    expect(listed.data[0].test_results).toHaveLength(1);
    expect(unsigned(listed.data[0].screenshots_paths)).toEqual(unsigned([upload.data.url]));

    // PUT with test_results replaces the run's results, and the counts follow them.
    const replaced = await api.call('PUT', `/api/automation/test-runs/${id}`, {
      token: alice.token,
      json: {
        test_results: [
          { status: 'passed', test_case: { test_name: 'one' }, execution_time: 0.8 },
          { status: 'failed', test_case: { test_name: 'two' }, execution_time: 0.5, error: 'Nope' },
          { status: 'passed', test_case: { test_name: 'three' }, execution_time: 0.1 },
        ],
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.data).toMatchObject({ passed_tests: 2, failed_tests: 1 });
    expect(
      replaced.data.test_results.map((r: { test_case_name: string }) => r.test_case_name).sort(),
    ).toEqual(['one', 'three', 'two']);
    const badResults = await api.call('PUT', `/api/automation/test-runs/${id}`, {
      token: alice.token,
      json: { test_results: [{ status: 'passed' }] },
    });
    expect(badResults.status).toBe(422);
    expect(JSON.stringify(badResults.data.detail)).toContain('test_results');
    expect((await api.call('GET', '/api/automation/test-runs', { token: bob.token })).data).toEqual([]);
    expect(
      (
        await api.call('PUT', `/api/automation/test-runs/${id}`, {
          token: alice.token,
          json: { status: 'dancing' },
        })
      ).status,
    ).toBe(422);
  });
});

describe('a server restarted mid-run', () => {
  it('marks the run interrupted and keeps what it had recorded', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = await mkdtemp(join(tmpdir(), 'argus-restart-'));
    const site = await serveFixtureSite();
    try {
      const first = await spawnServer({
        DATA_DIR: dataDir,
        ALLOWED_TARGETS: '127.0.0.1',
        AUTOMATION_PARALLELISM: '1',
      });
      const api = client(first);
      const alice = await api.signUp('alice');
      const socket = openSocket(
        `${first.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`,
      );
      await socket.next('connection_established');
      const slow = Array.from({ length: 6 }, (_, i) => ({
        test_name: `Case ${i + 1}`,
        steps: [
          `Navigate to ${site.url}/`,
          'Wait 1 second',
          'Verify heading "Outdoor gear for every trail" is visible',
        ],
      }));
      socket.send('run_all_tests', { url: `${site.url}/`, test_cases: slow, test_mode: 'full' });
      const started: Message = await socket.next('execution_started');
      await socket.next('test_completed', 30_000);
      await first.crash();

      const second = await spawnServer({ DATA_DIR: dataDir });
      const again = client(second);
      const run = await again.call('GET', `/api/automation/test-runs/${started.data.test_run_id}`, {
        token: alice.token,
      });
      expect(run.data.status).toBe('interrupted');
      expect(run.data.test_results.length).toBeGreaterThanOrEqual(1);
      expect(run.data.test_results[0].status).toBe('passed');
      await second.stop();
    } finally {
      await site.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
