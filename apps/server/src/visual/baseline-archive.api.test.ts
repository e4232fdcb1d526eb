/**
 * Baselines in Git (docs/VISUAL-CHECKS.md#baselines-in-git): a project's current baselines of an
 * environment and branch exported as one archive (pictures included) and imported into another
 * environment: each as its key's newest, approved by the importer; imported again, nothing changes. A
 * tampered picture is refused before anything is written; another organization's project answers 404,
 * another project's environment 404, and a viewer may export but not import.
 */
import { createHash } from 'node:crypto';
import { BaselineArchiveSchema } from '@argus/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

type Member = { token: string; user: { id: string; username: string } };

const png = (colour: string, width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 4, background: colour } })
    .png()
    .toBuffer();

describe('visual baselines exported and imported as an archive', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let olga: Member;
  let vera: Member;
  let mallory: Member;
  let acme: string;
  let project: string;
  let staging: string;
  let qa: string;
  let otherEnvironment: string;
  const as = (who: Member, method: string, path: string, json?: unknown) =>
    api.call(method, path, {
      token: who.token,
      headers: who === mallory ? {} : { 'x-argus-organization': acme },
      ...(json === undefined ? {} : { json }),
    });
  const base = () => `/api/projects/${project}/visual-baselines`;

  /** A baseline as an approval would leave it, its picture stored. */
  const seed = async (
    environment: string,
    fields: { case_name: string; check_name: string; branch?: string; colour: string; threshold?: number },
  ) => {
    const { services } = server.app;
    const data = await png(fields.colour);
    const sha256 = await services.blobs.put(data);
    return services.repos.visual.addBaseline(acme, {
      project_id: project,
      environment_id: environment,
      branch: fields.branch ?? '',
      case_name: fields.case_name,
      check_name: fields.check_name,
      viewport_width: 1440,
      viewport_height: 900,
      browser: 'chromium',
      sha256,
      width: 40,
      height: 30,
      moving_masks: [{ x: 1, y: 2, width: 3, height: 4 }],
      user_masks: [],
      threshold: fields.threshold ?? 0,
      approved_by: 'someone',
      source_run_id: null,
      copied_from: null,
    });
  };

  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
    olga = await api.signUp('archive-olga');
    vera = await api.signUp('archive-vera');
    mallory = await api.signUp('archive-mallory');
    acme = (await api.call('POST', '/api/organizations', { token: olga.token, json: { name: 'Acme' } })).data
      .id;
    const invited = await as(olga, 'POST', '/api/organization/invitations', {
      email: 'archive-vera@example.com',
      role: 'viewer',
    });
    const link = invited.data.path.split('/').pop();
    expect((await api.call('POST', `/api/invitations/${link}/accept`, { token: vera.token })).status).toBe(
      200,
    );
    const made = await as(olga, 'POST', '/api/projects', {
      name: 'Shop',
      environments: [
        { name: 'staging', base_url: 'https://staging.shop.example/' },
        { name: 'qa', base_url: 'https://qa.shop.example/' },
      ],
    });
    expect(made.status).toBe(201);
    project = made.data.id;
    const environments = made.data.environments as { id: string; name: string; is_default: boolean }[];
    staging = environments.find((one) => one.name === 'staging')?.id ?? '';
    qa = environments.find((one) => one.name === 'qa')?.id ?? '';
    expect(environments.find((one) => one.is_default)?.id).toBe(staging);
    const other = await as(olga, 'POST', '/api/projects', {
      name: 'Blog',
      environments: [{ name: 'prod', base_url: 'https://blog.example/' }],
    });
    otherEnvironment = other.data.environments[0].id;

    await seed(staging, { case_name: 'Plans page', check_name: 'page', colour: '#ff0000' });
    // An older picture of the same key: only the newest is exported.
    await seed(staging, { case_name: 'Checkout', check_name: 'header', colour: '#00ff00' });
    await seed(staging, { case_name: 'Checkout', check_name: 'header', colour: '#0000ff', threshold: 0.01 });
    // Another branch's, and another environment's: not in the default branch's export of staging.
    await seed(staging, { case_name: 'Plans page', check_name: 'page', branch: 'feature/x', colour: '#000' });
    await seed(qa, { case_name: 'Other', check_name: 'page', colour: '#fff' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  let archive: ReturnType<typeof BaselineArchiveSchema.parse>;

  it('exports the current baselines of the default environment and branch, pictures included', async () => {
    const res = await as(vera, 'GET', `${base()}/export`);
    expect(res.status).toBe(200);
    archive = BaselineArchiveSchema.parse(res.data);
    expect([archive.format, archive.version, archive.project, archive.environment, archive.branch]).toEqual([
      'argus-baselines',
      1,
      'Shop',
      'staging',
      '',
    ]);
    expect(
      archive.baselines.map((b) => [b.case_name, b.check_name, b.viewport, b.browser, b.threshold]),
    ).toEqual([
      ['Checkout', 'header', { width: 1440, height: 900 }, 'chromium', 0.01],
      ['Plans page', 'page', { width: 1440, height: 900 }, 'chromium', 0],
    ]);
    expect(archive.baselines[0].moving_masks).toEqual([{ x: 1, y: 2, width: 3, height: 4 }]);
    for (const entry of archive.baselines) {
      const bytes = Buffer.from(entry.png, 'base64');
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
    }
    const blue = await sharp(Buffer.from(archive.baselines[0].png, 'base64')).raw().toBuffer();
    expect([...blue.subarray(0, 4)]).toEqual([0, 0, 255, 255]);
    // A branch, named: its own baselines only.
    const branch = await as(olga, 'GET', `${base()}/export?environment_id=${staging}&branch=feature/x`);
    expect(branch.data.branch).toBe('feature/x');
    expect(branch.data.baselines.map((b: { case_name: string }) => b.case_name)).toEqual(['Plans page']);
  });

  it('imports into another environment (each its key’s newest), then again with nothing to change', async () => {
    const first = await as(olga, 'POST', `${base()}/import?environment_id=${qa}`, archive);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ added: 2, unchanged: 0 });
    const listed = await as(olga, 'GET', `${base()}?environment_id=${qa}`);
    const imported = listed.data.baselines.filter((b: { case_name: string }) => b.case_name !== 'Other');
    expect(
      imported.map((b: Record<string, unknown>) => [
        b.case_name,
        b.environment_id,
        b.branch,
        b.width,
        b.height,
        b.threshold,
        b.approved_by,
        b.source_run_id,
        b.copied_from,
      ]),
    ).toEqual([
      ['Checkout', qa, '', 40, 30, 0.01, 'archive-olga', null, null],
      ['Plans page', qa, '', 40, 30, 0, 'archive-olga', null, null],
    ]);
    const again = await as(olga, 'POST', `${base()}/import?environment_id=${qa}`, archive);
    expect(again.data).toEqual({ added: 0, unchanged: 2 });
    // The same archive exported back from qa holds the same baselines.
    const back = BaselineArchiveSchema.parse(
      (await as(olga, 'GET', `${base()}/export?environment_id=${qa}`)).data,
    );
    expect(back.baselines.filter((b) => b.case_name !== 'Other')).toEqual(archive.baselines);
    // A changed setting is a new newest; the unchanged one stays.
    const changed = structuredClone(archive);
    changed.baselines[1].user_masks = [{ x: 0, y: 0, width: 10, height: 10 }];
    expect((await as(olga, 'POST', `${base()}/import?environment_id=${qa}`, changed)).data).toEqual({
      added: 1,
      unchanged: 1,
    });
    const audit = await as(olga, 'GET', '/api/audit');
    const rows = audit.data.items.filter((row: { action: string }) => row.action === 'visual_imported');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ project_id: project, target: 'default branch' });
  });

  it('imports onto a branch: the default branch keeps its own', async () => {
    const res = await as(olga, 'POST', `${base()}/import?environment_id=${qa}&branch=release`, archive);
    expect(res.data).toEqual({ added: 2, unchanged: 0 });
    const branch = await as(olga, 'GET', `${base()}?environment_id=${qa}&branch=release`);
    expect(branch.data.baselines.map((b: { branch: string }) => b.branch)).toEqual(['release', 'release']);
  });

  it('refuses a tampered, unreadable or repeated picture with where, before anything is written', async () => {
    const refusal = async (change: (copy: typeof archive) => void) => {
      const copy = structuredClone(archive);
      change(copy);
      const res = await as(olga, 'POST', `${base()}/import?environment_id=${qa}&branch=tampered`, copy);
      expect(res.status).toBe(422);
      expect(res.data.code).toBe('VALIDATION');
      return res.data.detail[0];
    };
    const other = await png('#123456');
    expect(
      await refusal((copy) => {
        copy.baselines[1].png = other.toString('base64');
      }),
    ).toMatchObject({ loc: ['body', 'baselines', 1, 'sha256'], type: 'sha256_mismatch' });
    expect(
      await refusal((copy) => {
        copy.baselines[0].sha256 = 'f'.repeat(64);
      }),
    ).toMatchObject({ loc: ['body', 'baselines', 0, 'sha256'] });
    const text = Buffer.from('not a picture');
    expect(
      await refusal((copy) => {
        copy.baselines[0].png = text.toString('base64');
        copy.baselines[0].sha256 = createHash('sha256').update(text).digest('hex');
      }),
    ).toMatchObject({ loc: ['body', 'baselines', 0, 'png'], msg: 'Not a PNG image' });
    expect(
      await refusal((copy) => {
        copy.baselines[1] = { ...copy.baselines[0] };
      }),
    ).toMatchObject({ loc: ['body', 'baselines', 1, 'check_name'], type: 'duplicate' });
    expect(
      await refusal((copy) => {
        copy.baselines[0].png = '%%%';
      }),
    ).toMatchObject({ loc: ['body', 'baselines', 0, 'png'] });
    expect(
      await refusal((copy) => {
        (copy as { format: string }).format = 'zip';
      }),
    ).toMatchObject({ loc: ['body', 'format'] });
    const tampered = await as(olga, 'GET', `${base()}?environment_id=${qa}&branch=tampered`);
    expect(tampered.data.baselines).toEqual([]);
  });

  it('answers 404 for another organization’s project and another project’s environment; 403 for a viewer’s import', async () => {
    const theirs = await as(mallory, 'GET', `${base()}/export`);
    expect([theirs.status, theirs.data.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    const into = await as(mallory, 'POST', `${base()}/import`, archive);
    expect([into.status, into.data.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    for (const [method, path] of [
      ['GET', `${base()}/export?environment_id=${otherEnvironment}`],
      ['POST', `${base()}/import?environment_id=${otherEnvironment}`],
      ['GET', `${base()}/export?environment_id=not-an-id`],
    ]) {
      const res = await as(olga, method, path, method === 'POST' ? archive : undefined);
      expect([res.status, res.data.code]).toEqual([404, 'ENVIRONMENT_NOT_FOUND']);
    }
    const viewer = await as(vera, 'POST', `${base()}/import?environment_id=${qa}`, archive);
    expect(viewer.status).toBe(403);
    const after = await as(olga, 'GET', `${base()}/export?environment_id=${qa}`);
    expect(after.data.baselines).toHaveLength(3);
  });
});
