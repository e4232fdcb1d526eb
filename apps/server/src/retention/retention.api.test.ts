import { existsSync } from 'node:fs';
import { rename, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageUsage } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';
import { RetentionSweeper } from './retention-sweeper';

type User = { token: string; user: { id: string } };

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(apiTargets())('history retention on $name', ({ start }) => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;

  const services = () => server.app.services;
  const blobPath = (sha: string) => join(services().blobs.root, sha.slice(0, 2), sha.slice(2, 4), sha);
  /** A blob of `size` bytes named `name`, its file dated two days back (as if written then). */
  const oldBlob = async (name: string, size: number) => {
    const data = Buffer.alloc(size, name);
    data.write(name);
    const sha = await services().blobs.put(data);
    const then = new Date(Date.now() - 2 * DAY_MS);
    await utimes(blobPath(sha), then, then);
    return { sha, size, data };
  };
  const age = (table: string, id: string, days: number) =>
    services().db.exec(`UPDATE ${table} SET created_at = now() - interval '${days} days' WHERE id = '${id}'`);
  const run = async (user: User, status: string, days: number, shots: { sha: string; size: number }[]) => {
    const row = await services().repos.testRuns.create(user.user.id, { url: 'https://shop.example', status });
    const ids = [];
    for (const [index, shot] of shots.entries()) {
      const saved = await services().repos.testRuns.addScreenshot(user.user.id, {
        test_run_id: row.id,
        test_case_name: 'Checkout',
        step_name: null,
        step_index: index,
        sha256: shot.sha,
        mime: 'image/png',
        bytes: shot.size,
        width: null,
        height: null,
        metadata: {},
      });
      ids.push(saved.id);
      await age('screenshots', saved.id, days);
    }
    await age('test_runs', row.id, days);
    return { id: row.id, screenshotIds: ids };
  };
  const image = async (user: User, blob: { sha: string; size: number }, days: number) => {
    const row = await services().repos.designComparisons.addImage(user.user.id, {
      sha256: blob.sha,
      bytes: blob.size,
      width: 1440,
      height: 900,
    });
    await age('comparison_images', row.id, days);
    return row.id;
  };

  beforeAll(async () => {
    server = (await start()) as InProcessServer;
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('removes runs and comparisons older than the retention with the blobs only they used, and nothing younger', async () => {
    const { repos } = services();
    const shared = await oldBlob('shared', 1000);
    const oldOnly = await oldBlob('old-only', 1100);
    const bobsOld = await oldBlob('bobs-old', 1200);
    const young = await oldBlob('young', 1300);
    const running = await oldBlob('running', 1400);
    const oldSite = await oldBlob('old-site', 1500);
    const oldDesign = await oldBlob('old-design', 1600);
    const upload = await oldBlob('upload', 1700);
    const thumbnail = await oldBlob('thumbnail', 1800);
    const youngSite = await oldBlob('young-site', 1900);
    const leftover = await oldBlob('leftover', 2000);
    const reused = await oldBlob('reused', 2100);

    const aliceOld = await run(alice, 'completed', 40, [oldOnly, shared]);
    const aliceYoung = await run(alice, 'completed', 1, [shared, young]);
    const aliceRunning = await run(alice, 'running', 40, [running]);
    const bobOld = await run(bob, 'failed', 31, [bobsOld]);
    const uploadRow = await repos.designComparisons.addUpload(alice.user.id, {
      sha256: upload.sha,
      thumbnail_sha256: thumbnail.sha,
      filename: 'design.png',
      content_type: 'image/png',
      width: 1440,
      height: 900,
      size: upload.size,
      thumbnail_bytes: thumbnail.size,
    });
    await age('design_uploads', uploadRow.id, 40);
    const oldComparison = await repos.designComparisons.addComparison(alice.user.id, {
      session_id: 'local_old',
      comparison_type: 'image',
      website_url: 'https://shop.example',
      figma_url: null,
      file_id: uploadRow.id,
      results: {},
      images: {
        desktop: {
          site: await image(alice, oldSite, 40),
          design: await image(alice, oldDesign, 40),
          width: 1440,
          height: 900,
        },
      },
    });
    await age('comparisons', oldComparison.id, 40);
    // A comparison begun just before the cutoff, whose design image was stored before it: kept whole.
    const youngDesign = await image(alice, oldDesign, 31);
    const youngComparison = await repos.designComparisons.addComparison(alice.user.id, {
      session_id: 'local_young',
      comparison_type: 'image',
      website_url: 'https://shop.example',
      figma_url: null,
      file_id: null,
      results: {},
      images: {
        desktop: { site: await image(alice, youngSite, 1), design: youngDesign, width: 1440, height: 900 },
      },
    });
    await age('comparisons', youngComparison.id, 29);

    // HISTORY_RETENTION_DAYS=0 keeps everything.
    const keepAll = new RetentionSweeper({
      ...services(),
      config: { historyRetentionDays: 0, retentionSweepIntervalMs: 3_600_000 },
      log: server.app.log,
    });
    expect(await keepAll.sweep()).toBeNull();
    expect(await repos.testRuns.get(alice.user.id, aliceOld.id)).toBeDefined();
    expect(existsSync(blobPath(oldOnly.sha))).toBe(true);

    // Re-used a moment before the sweep (a new screenshot of the same bytes whose row is not written
    // yet): its file is dated now, so the sweep leaves it.
    await services().blobs.put(reused.data);

    // Two processes sweeping at once (PostgreSQL: two connections) share the work between them.
    const other = new RetentionSweeper({ ...services(), log: server.app.log });
    const reports = await Promise.all([services().retention.sweep(), other.sweep()]);
    const sum = (key: 'runsDeleted' | 'comparisonsDeleted' | 'blobsDeleted' | 'bytesFreed') =>
      reports.reduce((total, report) => total + (report?.[key] ?? 0), 0);
    const gone = [oldOnly, bobsOld, oldSite, upload, thumbnail, leftover];
    expect({
      runs: sum('runsDeleted'),
      comparisons: sum('comparisonsDeleted'),
      blobs: sum('blobsDeleted'),
      bytes: sum('bytesFreed'),
    }).toEqual({
      runs: 2,
      comparisons: 1,
      blobs: gone.length,
      bytes: gone.reduce((total, blob) => total + blob.size, 0),
    });
    for (const blob of gone)
      expect(existsSync(blobPath(blob.sha)), blob.data.toString('utf8', 0, 9)).toBe(false);
    for (const blob of [shared, young, running, oldDesign, youngSite, reused])
      expect(existsSync(blobPath(blob.sha)), blob.data.toString('utf8', 0, 9)).toBe(true);

    expect(await repos.testRuns.get(alice.user.id, aliceOld.id)).toBeUndefined();
    expect(await repos.testRuns.get(bob.user.id, bobOld.id)).toBeUndefined();
    expect(await repos.testRuns.screenshot(alice.user.id, aliceOld.screenshotIds[0])).toBeUndefined();
    expect(await repos.testRuns.get(alice.user.id, aliceYoung.id)).toBeDefined();
    expect(await repos.testRuns.get(alice.user.id, aliceRunning.id)).toBeDefined();
    expect(await repos.testRuns.screenshot(alice.user.id, aliceYoung.screenshotIds[0])).toBeDefined();
    expect(await repos.designComparisons.upload(alice.user.id, uploadRow.id)).toBeUndefined();
    expect(await repos.designComparisons.image(alice.user.id, youngDesign)).toBeDefined();
    expect((await repos.designComparisons.latestForSession(alice.user.id, 'local_young'))?.id).toBe(
      youngComparison.id,
    );
    expect(await repos.designComparisons.latestForSession(alice.user.id, 'local_old')).toBeUndefined();

    // Settings: the user's own figures, and the server's last sweep.
    const res = await api.call('GET', '/api/settings/storage', { token: alice.token });
    expect(res.status).toBe(200);
    const usage = res.data as StorageUsage;
    // The newer of the two sweeps' reports; two finishing in the same millisecond are both the last.
    const finished = reports.filter((r) => r !== null);
    const lastAt = Math.max(...finished.map((r) => +r.finishedAt));
    const lasts = finished
      .filter((r) => +r.finishedAt === lastAt)
      .map((r) => ({
        finished_at: r.finishedAt.toISOString(),
        runs_deleted: r.runsDeleted,
        blobs_deleted: r.blobsDeleted,
        bytes_freed: r.bytesFreed,
      }));
    expect(usage).toMatchObject({
      screenshot_bytes: shared.size + young.size + running.size,
      comparison_bytes: youngSite.size + oldDesign.size,
      upload_bytes: 0,
      total_bytes: shared.size + young.size + running.size + youngSite.size + oldDesign.size,
      quota_bytes: services().config.maxStoredBytesPerUser,
      runs: 2,
      comparisons: 1,
      retention_days: 30,
    });
    const {
      cutoff: _cutoff,
      comparisons_deleted: _comparisons,
      ...lastSweep
    } = usage.last_sweep ?? {
      cutoff: '',
      comparisons_deleted: 0,
    };
    expect(lasts).toContainEqual(lastSweep);
    expect(Date.now() - Date.parse(usage.oldest_run_at ?? '')).toBeGreaterThan(39 * DAY_MS);
    const bobs = (await api.call('GET', '/api/settings/storage', { token: bob.token })).data as StorageUsage;
    expect(bobs).toMatchObject({ total_bytes: 0, runs: 0, comparisons: 0, oldest_run_at: null });
    expect((await api.call('GET', '/api/settings/storage')).status).toBe(401);
  });

  it('removes conversations whose last message is older than the retention, and keeps one still going', async () => {
    const { repos } = services();
    const conversation = async (days: number, messageDays: number[]) => {
      const row = await repos.conversations.create(alice.user.id, { title: 'Chat', url: null });
      await age('conversations', row.id, days);
      for (const messageAge of messageDays) {
        const message = await repos.conversations.addMessage(alice.user.id, row.id, {
          role: 'user',
          content: 'click About',
        });
        await age('conversation_messages', message?.id as string, messageAge);
      }
      return row.id;
    };
    const old = await conversation(40, [40, 39]);
    const silent = await conversation(35, []);
    const stillGoing = await conversation(40, [40, 0]);
    const young = await conversation(2, [2]);
    const report = await services().retention.sweep();
    expect(report?.conversationsDeleted).toBe(2);
    const left = async (id: string) => (await repos.conversations.messages(alice.user.id, id)) !== undefined;
    expect(await left(old)).toBe(false);
    expect(await left(silent)).toBe(false);
    expect(await left(stillGoing)).toBe(true);
    expect(await left(young)).toBe(true);
    // Their messages go with them: ON DELETE CASCADE (a message cannot outlive its conversation).
  });

  it('keeps a blob re-used after the sweep listed it as unreferenced', async () => {
    const blob = await oldBlob('listed-then-reused', 500);
    const keepSince = Date.now() - 60_000;
    let listed = null;
    for await (const file of services().blobs.files()) if (file.sha256 === blob.sha) listed = file;
    expect(listed?.mtimeMs).toBeLessThan(keepSince);
    // The sweep decided to remove it; a put of the same bytes comes first.
    await services().blobs.put(blob.data);
    expect(await services().blobs.removeUnlessTouched(listed!, keepSince)).toBeNull();
    expect((await stat(blobPath(blob.sha))).size).toBe(500);
    // Untouched, it goes; a second removal (another process) finds it gone.
    const then = new Date(keepSince - 60_000);
    await utimes(blobPath(blob.sha), then, then);
    expect(await services().blobs.removeUnlessTouched(listed!, keepSince)).toBe(500);
    expect(await services().blobs.removeUnlessTouched(listed!, keepSince)).toBeNull();
    expect(existsSync(blobPath(blob.sha))).toBe(false);
  });

  it('puts back a blob a stopped sweep set aside while a row names it, and removes one no row names', async () => {
    const named = await oldBlob('set-aside-named', 300);
    const unnamed = await oldBlob('set-aside-unnamed', 400);
    await run(alice, 'completed', 1, [named]);
    const aside = (sha: string) => `${blobPath(sha)}.0123456789ab.sweep`;
    for (const blob of [named, unnamed]) await rename(blobPath(blob.sha), aside(blob.sha));
    // A sweep a minute later without grace: the set-aside files are not another sweep's any more.
    const later = new RetentionSweeper({
      ...services(),
      log: server.app.log,
      blobGraceMs: 0,
      now: () => new Date(Date.now() + 60_000),
    });
    await later.sweep();
    expect(existsSync(blobPath(named.sha))).toBe(true);
    expect(existsSync(aside(named.sha))).toBe(false);
    expect(existsSync(blobPath(unnamed.sha))).toBe(false);
    expect(existsSync(aside(unnamed.sha))).toBe(false);
  });
});
