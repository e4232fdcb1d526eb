import { existsSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaseArtifact, CaseDiagnostics, StoredTestResult } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedUrls } from '../storage/signed-urls';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { FILES_NOT_STORED, storeCaseFile } from './case-file-store';

/** The server signs its links with this: the test makes a rightly signed link that has expired. */
const JWT_SECRET = 'case-files-api-test-secret-0123456789abcdef';
const DAY_MS = 24 * 60 * 60 * 1000;

type User = { token: string; user: { id: string } };

const DIAGNOSTICS: CaseDiagnostics = {
  console: [
    { at_ms: 10, step_index: 0, level: 'log', text: 'loaded', location: null },
    {
      at_ms: 900,
      step_index: 1,
      level: 'pageerror',
      text: 'TypeError: x is undefined',
      location: 'app.js:3:7',
    },
  ],
  network: [
    {
      at_ms: 20,
      step_index: 0,
      method: 'GET',
      url: 'http://shop.test/',
      status: 200,
      resource_type: 'document',
      duration_ms: 12,
      request_bytes: 0,
      response_bytes: 512,
      failure: null,
      request_headers: { accept: 'text/html' },
      response_headers: { 'content-type': 'text/html' },
    },
    {
      at_ms: 950,
      step_index: 1,
      method: 'POST',
      url: 'http://shop.test/api/orders?cart=7',
      status: 500,
      resource_type: 'fetch',
      duration_ms: 30,
      request_bytes: 42,
      response_bytes: 20,
      failure: null,
      request_headers: { authorization: '[redacted]' },
      response_headers: { 'content-type': 'application/json' },
    },
  ],
  truncated: false,
};

describe("a case's trace, video, console and network", () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let ada: User;
  let bob: User;
  let runId: string;
  let caseId: string;
  const services = () => server.app.services;
  const files = (
    ownerId: string,
    id: string,
    kind: 'trace' | 'video' | 'diagnostics',
    attempt: number,
    data: Buffer,
  ) =>
    storeCaseFile(
      { ...services(), log: server.app.log },
      ownerId,
      id,
      'Checkout',
      { kind, attempt, data },
      { used: 0, limit: 1e9 },
    );
  const get = async (url: string, token?: string) => {
    const res = await fetch(url.startsWith('http') ? url : `${server.url}${url}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
  };

  /** A recorded run of `user` with one failed case, its result row id. */
  const recordedRun = async (user: User) => {
    const run = await services().repos.testRuns.create(user.user.id, {
      url: 'http://shop.test/',
      status: 'completed',
    });
    const result = await services().repos.testRuns.addResult(user.user.id, run.id, {
      test_case_id: null,
      test_case_name: 'Checkout',
      status: 'failed',
      execution_time: 2.5,
      error_message: 'Expected text "Order confirmed" to be visible',
      attempts: 2,
      steps: [],
      logs: [],
      screenshots: [],
      failure_kind: 'app_error',
      failure_evidence: 'POST /api/orders answered 500 during step 2',
      failure_fingerprint: '0123456789abcdef',
      failure_step: 1,
      diagnostics: { console: 2, console_errors: 1, requests: 2, failed_requests: 1 },
    });
    return { runId: run.id, caseId: result.id };
  };

  beforeAll(async () => {
    server = await startInProcess({ JWT_SECRET });
    api = client(server);
    ada = await api.signUp('ada');
    bob = await api.signUp('bob');
    ({ runId, caseId } = await recordedRun(ada));
    await files(ada.user.id, runId, 'trace', 1, Buffer.from('PK first attempt trace'));
    await files(ada.user.id, runId, 'trace', 2, Buffer.from('PK second attempt trace'));
    await files(ada.user.id, runId, 'video', 2, Buffer.from('webm of the second attempt'));
    await files(ada.user.id, runId, 'diagnostics', 2, Buffer.from(JSON.stringify(DIAGNOSTICS)));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const artifactsOf = async (user: User, id: string): Promise<CaseArtifact[]> => {
    // Over HTTP: the links are made absolute with the request's own origin.
    const res = await client(server.url).call('GET', `/api/automation/test-runs/${id}`, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    return (res.data.test_results as StoredTestResult[])[0].artifacts;
  };

  it("lists each kept trace and video with a signed link, the viewer's for traces, and opens each attempt's", async () => {
    const artifacts = await artifactsOf(ada, runId);
    expect(artifacts.map((a) => [a.kind, a.attempt, a.bytes])).toEqual([
      ['trace', 1, 22],
      ['trace', 2, 23],
      ['video', 2, 26],
    ]);
    const [first, second, video] = artifacts;
    expect(first.url).toMatch(
      new RegExp(`^${server.url}/api/runs/${runId}/cases/${caseId}/trace\\.zip\\?attempt=1&owner=`),
    );
    expect(first.viewer_url).toBe(
      `${server.url}/trace-viewer/index.html?trace=${encodeURIComponent(first.url)}`,
    );
    expect(video.viewer_url).toBeNull();

    const one = await get(first.url);
    expect([one.status, one.headers.get('content-type'), one.text]).toEqual([
      200,
      'application/zip',
      'PK first attempt trace',
    ]);
    expect((await get(second.url)).text).toBe('PK second attempt trace');
    const played = await get(video.url);
    expect([played.status, played.headers.get('content-type')]).toEqual([200, 'video/webm']);
  });

  it('opens the last kept attempt without ?attempt, and refuses unsigned (401), altered or expired (403) and not-the-signer’s (404) links', async () => {
    const path = `/api/runs/${runId}/cases/${caseId}/trace.zip`;
    const urls = createSignedUrls({ secret: new TextEncoder().encode(JWT_SECRET), ttlSeconds: 600 });
    const last = await get(urls.caseFile('trace', { runId, caseId, attempt: null }, ada.user.id));
    expect([last.status, last.text]).toEqual([200, 'PK second attempt trace']);

    expect((await get(path)).status).toBe(401);
    // Ada's own login does not open it either: only the signed link does.
    expect((await get(path, ada.token)).status).toBe(401);
    const signed = new URL((await artifactsOf(ada, runId))[0].url);
    signed.searchParams.set('attempt', '2');
    expect((await get(signed.href)).status).toBe(403);

    const expired = createSignedUrls({
      secret: new TextEncoder().encode(JWT_SECRET),
      ttlSeconds: 60,
      now: () => Date.now() - 3_600_000,
    });
    const old = await get(expired.caseFile('trace', { runId, caseId, attempt: 1 }, ada.user.id));
    expect([old.status, JSON.parse(old.text).code, JSON.parse(old.text).detail]).toEqual([
      403,
      'LINK_INVALID',
      'This link has expired',
    ]);
    // A link rightly signed for Bob opens nothing of Ada's run.
    const bobs = await get(urls.caseFile('trace', { runId, caseId, attempt: 1 }, bob.user.id));
    expect(bobs.status).toBe(404);
    // Nor a case no trace was kept for, nor a result of another run.
    const other = await recordedRun(ada);
    expect((await get(urls.caseFile('trace', { ...other, attempt: null }, ada.user.id))).status).toBe(404);
    expect(
      (await get(urls.caseFile('trace', { runId, caseId: other.caseId, attempt: null }, ada.user.id))).status,
    ).toBe(404);
  });

  it("answers a case's console and network, and its HAR, to its owner only", async () => {
    const path = `/api/runs/${runId}/cases/${caseId}`;
    const mine = await api.call('GET', `${path}/diagnostics`, { token: ada.token });
    expect([mine.status, mine.data]).toEqual([200, DIAGNOSTICS]);
    const theirs = await api.call('GET', `${path}/diagnostics`, { token: bob.token });
    expect([theirs.status, theirs.data.code]).toEqual([404, 'TEST_RUN_NOT_FOUND']);
    expect((await api.call('GET', `${path}/diagnostics`)).status).toBe(401);
    expect((await api.call('GET', `${path}/network.har`, { token: bob.token })).status).toBe(404);

    const har = await get(`${path}/network.har`, ada.token);
    expect(har.status).toBe(200);
    expect(har.headers.get('content-disposition')).toContain('network.har');
    const { log } = JSON.parse(har.text);
    expect(log.version).toBe('1.2');
    expect(log.creator.name).toBe('Argus');
    expect(
      log.entries.map((e: { request: { method: string; url: string }; response: { status: number } }) => [
        e.request.method,
        e.request.url,
        e.response.status,
      ]),
    ).toEqual([
      ['GET', 'http://shop.test/', 200],
      ['POST', 'http://shop.test/api/orders?cart=7', 500],
    ]);
    expect(log.entries[1].request.queryString).toEqual([{ name: 'cart', value: '7' }]);
    expect(log.entries[1].request.headers).toEqual([{ name: 'authorization', value: '[redacted]' }]);
    expect(log.entries[1].response.content).not.toHaveProperty('text');
    // A case that recorded no console and network says so.
    const other = await recordedRun(ada);
    const none = await api.call('GET', `/api/runs/${other.runId}/cases/${other.caseId}/diagnostics`, {
      token: ada.token,
    });
    expect(none.status).toBe(404);
  });

  it('counts the files in the quota, and at the quota skips them with one line in the run log', async () => {
    const before = await services().repos.testRuns.storedBytes(ada.user.id);
    const { runId: full } = await recordedRun(ada);
    const storage = { used: 990, limit: 1000 };
    const big = Buffer.alloc(100, 1);
    expect(
      await storeCaseFile(
        { ...services(), log: server.app.log },
        ada.user.id,
        full,
        'Checkout',
        { kind: 'trace', attempt: 1, data: big },
        storage,
      ),
    ).toBeNull();
    expect(
      await storeCaseFile(
        { ...services(), log: server.app.log },
        ada.user.id,
        full,
        'Checkout',
        { kind: 'video', attempt: 1, data: big },
        storage,
      ),
    ).toBeNull();
    const small = Buffer.from('tiny');
    expect(
      await storeCaseFile(
        { ...services(), log: server.app.log },
        ada.user.id,
        full,
        'Checkout',
        { kind: 'diagnostics', attempt: 1, data: small },
        storage,
      ),
    ).not.toBeNull();
    const run = await services().repos.testRuns.get(ada.user.id, full);
    const notes = ((run?.execution_log ?? []) as { level: string; message: string }[]).filter((l) =>
      l.message.startsWith(FILES_NOT_STORED),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].level).toBe('warn');
    expect(run?.status).toBe('completed');
    expect(await services().repos.testRuns.storedBytes(ada.user.id)).toBe(before + small.length);
    const storage2 = await api.call('GET', '/api/settings/storage', { token: ada.token });
    expect(storage2.data.total_bytes).toBeGreaterThanOrEqual(before + small.length);
  });

  it("removes a run's files with it, and their blobs once nothing else uses them", async () => {
    const blobPath = (sha: string) => join(services().blobs.root, sha.slice(0, 2), sha.slice(2, 4), sha);
    const old = await recordedRun(bob);
    const young = await recordedRun(bob);
    const oldTrace = await files(bob.user.id, old.runId, 'trace', 1, Buffer.from('PK an old trace only'));
    const youngTrace = await files(bob.user.id, young.runId, 'trace', 1, Buffer.from('PK a young trace'));
    if (!oldTrace || !youngTrace) throw new Error('not stored');
    const then = new Date(Date.now() - 2 * DAY_MS);
    for (const sha of [oldTrace.sha256, youngTrace.sha256]) await utimes(blobPath(sha), then, then);
    await services().db.exec(
      `UPDATE test_runs SET created_at = now() - interval '400 days' WHERE id = '${old.runId}'`,
    );

    await services().retention.sweep();
    expect(await services().repos.testRuns.get(bob.user.id, old.runId)).toBeUndefined();
    expect(await services().repos.caseArtifacts.forRun(bob.user.id, old.runId)).toEqual([]);
    expect(existsSync(blobPath(oldTrace.sha256))).toBe(false);
    // The young run's trace is named only by its case_artifacts row: kept.
    expect(existsSync(blobPath(youngTrace.sha256))).toBe(true);
    expect(await services().repos.caseArtifacts.forRun(bob.user.id, young.runId)).toHaveLength(1);
  });
});
