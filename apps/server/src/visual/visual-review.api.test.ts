/**
 * Visual checks through real runs (docs/VISUAL-CHECKS.md): a saved suite with `Verify the page looks as
 * approved` runs on a page served here, in real Chromium, through the server. The first run records a
 * new check for review; approved, the next run looks as approved; a changed page is put up for review
 * with its located issues and pictures; rejected, the baseline stays; a branch compares with the
 * default branch's baseline until it has its own, and its approvals reach the default branch only when
 * promoted. Another organization's run, check and baseline answer 404; a viewer cannot decide.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

/** What the page shows: the tests change it between runs. */
const look = { button: '#1565c0' };
const page = () => `<!doctype html><html><head><title>Plans</title><style>
  body { margin: 0; font: 18px/1.3 sans-serif; background: #fafafa; color: #222; }
  header { height: 64px; background: #263238; color: #fff; padding: 0 24px; display: flex; align-items: center; }
  main { padding: 32px 24px; }
  #buy { margin-top: 24px; padding: 12px 28px; border: 0; border-radius: 6px; color: #fff; background: ${look.button}; font: inherit; }
</style></head><body>
  <header>Plans</header>
  <main><h1>Team plan</h1><p>Everything a team of ten needs.</p><button id="buy">Buy now</button></main>
</body></html>`;

const SUITE = {
  name: 'Looks',
  test_cases: [{ test_name: 'Plans page', steps: ['Navigate to /', 'Verify the page looks as approved'] }],
};

type Member = { token: string; user: { id: string; username: string } };

describe('visual checks of real runs', () => {
  let site: Server;
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let olga: Member;
  let vera: Member;
  let mallory: Member;
  let acme: string;
  let project: string;
  let suite: string;
  const as = (who: Member, method: string, path: string, json?: unknown) =>
    api.call(method, path, {
      token: who.token,
      headers: who === mallory ? {} : { 'x-argus-organization': acme },
      ...(json === undefined ? {} : { json }),
    });
  /** Runs the suite (on `branch`) and answers its report once it is over. */
  const run = async (branch?: string) => {
    const started = await as(
      olga,
      'POST',
      `/api/projects/${project}/suites/${suite}/runs`,
      branch ? { branch } : {},
    );
    expect(started.status).toBe(202);
    for (let i = 0; i < 1200; i += 1) {
      const res = await as(olga, 'GET', `/api/runs/${started.data.test_run_id}`);
      if (['completed', 'failed', 'error', 'interrupted'].includes(res.data.status)) return res.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the run did not end');
  };
  const checksOf = async (runId: string) => {
    const res = await as(olga, 'GET', `/api/runs/${runId}/visual-checks`);
    expect(res.status).toBe(200);
    return res.data;
  };
  /** A signed picture, as an <img> opens it: no token. */
  const picture = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page()));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    server = await startInProcess({ ALLOWED_TARGETS: '127.0.0.1', AUTOMATION_PARALLELISM: '1' });
    api = client(server);
    olga = await api.signUp('visual-olga');
    vera = await api.signUp('visual-vera');
    mallory = await api.signUp('visual-mallory');
    acme = (await api.call('POST', '/api/organizations', { token: olga.token, json: { name: 'Acme' } })).data
      .id;
    const invited = await as(olga, 'POST', '/api/organization/invitations', {
      email: 'visual-vera@example.com',
      role: 'viewer',
    });
    const link = invited.data.path.split('/').pop();
    expect((await api.call('POST', `/api/invitations/${link}/accept`, { token: vera.token })).status).toBe(
      200,
    );
    const port = (site.address() as AddressInfo).port;
    project = (
      await as(olga, 'POST', '/api/projects', {
        name: 'Shop',
        environments: [{ name: 'staging', base_url: `http://127.0.0.1:${port}/` }],
      })
    ).data.id;
    suite = (await as(olga, 'POST', `/api/projects/${project}/suites`, SUITE)).data.id;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    site?.closeAllConnections();
    await new Promise((r) => site?.close(r));
  });

  it('records a first run as a new check for review, and the next run after approval as approved', async () => {
    const first = await run();
    // The case passes: a visual difference is for review, not a failed step.
    expect([first.status, first.passed_tests, first.visual]).toEqual([
      'completed',
      1,
      {
        to_review: 1,
        review_path: `/history/runs/${first.id}?tab=review`,
        pending: [
          {
            case_name: 'Plans page',
            check_name: 'page',
            status: 'new',
            message: 'New visual check: review it (this capture is kept as its pending baseline)',
            issues: [],
          },
        ],
      },
    ]);
    const listed = await checksOf(first.id);
    expect(listed.to_review).toBe(1);
    // The History says so too: the run is 'changes to review'.
    const history = await as(olga, 'GET', '/api/history');
    const line = history.data.items.find((item: { id: string }) => item.id === first.id);
    expect(line).toMatchObject({ status: 'passed', visual_to_review: 1 });
    const [check] = listed.checks;
    expect(check).toMatchObject({
      case_name: 'Plans page',
      check_name: 'page',
      status: 'new',
      review: 'pending',
      baseline: null,
      step_index: 1,
      browser: 'chromium',
      images: { baseline: null, diff: null },
    });
    const current = await picture(check.images.current);
    expect([current.status, current.type]).toEqual([200, 'image/png']);
    expect(current.bytes.subarray(1, 4).toString()).toBe('PNG');
    // A link is signed for its picture: another picture's signature opens nothing.
    const forged = check.images.current.replace('/current.png', '/diff.png');
    expect((await picture(forged)).status).toBe(403);

    const approved = await as(olga, 'POST', `/api/runs/${first.id}/visual-checks/${check.id}/decision`, {
      decision: 'approve',
    });
    expect(approved.status).toBe(200);
    expect(approved.data).toMatchObject({ review: 'approved', decided_by: 'visual-olga', case_index: 0 });
    expect((await as(olga, 'GET', `/api/runs/${first.id}`)).data.visual.to_review).toBe(0);
    // Decided once: a second decision is a conflict, not a second baseline.
    const again = await as(olga, 'POST', `/api/runs/${first.id}/visual-checks/${check.id}/decision`, {
      decision: 'reject',
    });
    expect([again.status, again.data.code]).toEqual([409, 'VISUAL_REVIEW_CONFLICT']);

    const second = await run();
    expect(second.visual.to_review).toBe(0);
    const [same] = (await checksOf(second.id)).checks;
    // The baseline it was compared with is the one the approval made.
    expect(same.baseline.id).toBe(approved.data.made_baseline_id);
    expect(same).toMatchObject({ status: 'same', review: 'none', issues: [] });
    expect(same.baseline).toMatchObject({ approved_by: 'visual-olga', source_run_id: first.id });
  }, 120_000);

  it('puts a changed page up for review with located issues; rejected, the baseline stays', async () => {
    look.button = '#c62828';
    try {
      const changed = await run();
      expect(changed.visual.to_review).toBe(1);
      const [check] = (await checksOf(changed.id)).checks;
      expect(check).toMatchObject({ status: 'changed', review: 'pending' });
      expect(check.issues.length).toBeGreaterThan(0);
      expect(check.message).toMatch(/^Changed since approved/);
      // The difference is located on the button: below the header, a heading and a paragraph.
      const box = check.issues[0].box;
      expect(box.y).toBeGreaterThan(120);
      expect(box.y + box.height).toBeLessThan(400);
      for (const link of [check.images.current, check.images.baseline, check.images.diff]) {
        expect((await picture(link)).status).toBe(200);
      }
      const rejected = await as(olga, 'POST', `/api/runs/${changed.id}/visual-checks/${check.id}/decision`, {
        decision: 'reject',
        reason: 'The button must stay blue',
      });
      expect(rejected.data).toMatchObject({
        review: 'rejected',
        decision_reason: 'The button must stay blue',
        made_baseline_id: null,
      });
      const still = await run();
      expect((await checksOf(still.id)).checks[0]).toMatchObject({ status: 'changed', review: 'pending' });
      // 'Approve all in this run': the change is the baseline now, and the page looks as approved.
      const all = await as(olga, 'POST', `/api/runs/${still.id}/visual-checks/approve-all`);
      expect([all.status, all.data.to_review]).toEqual([200, 0]);
      const after = await run();
      expect((await checksOf(after.id)).checks[0]).toMatchObject({ status: 'same' });
    } finally {
      look.button = '#1565c0';
    }
  }, 240_000);

  it("compares a branch with the default branch's baseline until its own, and promotes it", async () => {
    // The default branch's baseline is the red button now (approved above); the branch turns it green.
    look.button = '#2e7d32';
    try {
      const onBranch = await run('feature/green');
      expect(onBranch.branch).toBe('feature/green');
      const [check] = (await checksOf(onBranch.id)).checks;
      expect(check).toMatchObject({ status: 'changed', branch: 'feature/green' });
      expect(check.baseline.branch).toBe('');
      await as(olga, 'POST', `/api/runs/${onBranch.id}/visual-checks/${check.id}/decision`, {
        decision: 'approve',
      });
      expect((await checksOf((await run('feature/green')).id)).checks[0].status).toBe('same');
      // The default branch still has its own baseline: the green button is a change there.
      expect((await checksOf((await run()).id)).checks[0].status).toBe('changed');
      const promoted = await as(olga, 'POST', `/api/projects/${project}/visual-baselines/promote`, {
        branch: 'feature/green',
      });
      expect([promoted.status, promoted.data]).toEqual([200, { promoted: 1 }]);
      expect((await checksOf((await run()).id)).checks[0].status).toBe('same');
      // The history keeps every baseline of the check, newest first; an earlier one can be restored.
      const current = await as(olga, 'GET', `/api/projects/${project}/visual-baselines`);
      expect(current.data.baselines).toHaveLength(1);
      const history = await as(olga, 'GET', `/api/visual-baselines/${current.data.baselines[0].id}/history`);
      expect(history.data.baselines.length).toBeGreaterThanOrEqual(3);
      const oldest = history.data.baselines.at(-1);
      const restored = await as(olga, 'POST', `/api/visual-baselines/${oldest.id}/restore`);
      expect(restored.data).toMatchObject({ copied_from: oldest.id, approved_by: 'visual-olga' });
      expect((await picture(restored.data.image)).status).toBe(200);
    } finally {
      look.button = '#1565c0';
    }
  }, 240_000);

  it("masks the elements a check's settings name by role, and reports their change again once unmasked", async () => {
    const current = await as(olga, 'GET', `/api/projects/${project}/visual-baselines`);
    const baselineId = current.data.baselines[0].id as string;
    const bad = await as(olga, 'PUT', `/api/visual-baselines/${baselineId}/settings`, {
      element_masks: [{}],
    });
    expect([bad.status, bad.data.code]).toEqual([422, 'VALIDATION']);
    const masked = await as(olga, 'PUT', `/api/visual-baselines/${baselineId}/settings`, {
      element_masks: [{ role: 'button' }],
    });
    expect(masked.data.element_masks).toEqual([{ role: 'button' }]);
    const before = look.button;
    look.button = '#6a1b9a';
    try {
      expect((await checksOf((await run()).id)).checks[0].status).toBe('same');
      await as(olga, 'PUT', `/api/visual-baselines/${baselineId}/settings`, { element_masks: [] });
      expect((await checksOf((await run()).id)).checks[0].status).toBe('changed');
    } finally {
      look.button = before;
    }
  }, 120_000);

  it("answers another organization's run, check and baseline as missing, and refuses a viewer's decision", async () => {
    const runs = await as(olga, 'GET', `/api/projects/${project}/runs`);
    const runId = runs.data[0].id as string;
    const { checks } = await checksOf(runId);
    const baselineId = (await as(olga, 'GET', `/api/projects/${project}/visual-baselines`)).data.baselines[0]
      .id;
    expect((await as(mallory, 'GET', `/api/runs/${runId}/visual-checks`)).status).toBe(404);
    expect(
      (
        await as(mallory, 'POST', `/api/runs/${runId}/visual-checks/${checks[0].id}/decision`, {
          decision: 'approve',
        })
      ).status,
    ).toBe(404);
    expect((await as(mallory, 'POST', `/api/runs/${runId}/visual-checks/approve-all`)).status).toBe(404);
    expect((await as(mallory, 'GET', `/api/visual-baselines/${baselineId}/history`)).status).toBe(404);
    expect((await as(mallory, 'POST', `/api/visual-baselines/${baselineId}/restore`)).status).toBe(404);
    expect((await as(mallory, 'GET', `/api/projects/${project}/visual-baselines`)).status).toBe(404);
    expect(
      (await as(mallory, 'POST', `/api/projects/${project}/visual-baselines/promote`, { branch: 'x' }))
        .status,
    ).toBe(404);
    // A viewer reads the review, and may not decide it.
    expect((await as(vera, 'GET', `/api/runs/${runId}/visual-checks`)).status).toBe(200);
    expect((await as(vera, 'POST', `/api/runs/${runId}/visual-checks/approve-all`)).status).toBe(403);
    // A bad decision is a coded validation error.
    const bad = await as(olga, 'POST', `/api/runs/${runId}/visual-checks/${checks[0].id}/decision`, {
      decision: 'maybe',
    });
    expect([bad.status, bad.data.code]).toEqual([422, 'VALIDATION']);
  }, 60_000);
});
