import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import type { RunningServer } from '../testing/spawn-server';

/** Two different small images: a 1×1 PNG and a 1×1 GIF. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

type Api = ReturnType<typeof client>;
interface Ref {
  id: string;
  url: string;
}

async function newRun(api: Api, token: string): Promise<string> {
  const run = await api.call('POST', '/api/automation/test-runs', {
    token,
    json: { url: 'https://example.com', test_cases: [{ test_name: 'one', steps: ['Click "A"'] }] },
  });
  expect(run.status).toBe(201);
  return run.data.id;
}

async function upload(api: Api, token: string, runId: string, image: Buffer, mime: string): Promise<Ref> {
  const res = await api.call('POST', '/api/screenshots/upload', {
    token,
    json: {
      test_run_id: runId,
      test_case_name: 'one',
      step_index: 0,
      image_data: `data:${mime};base64,${image.toString('base64')}`,
    },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data;
}

/** The link with some of its query replaced (or its path's id). */
function altered(url: string, change: { id?: string; query?: Record<string, string> }): string {
  const parsed = new URL(url, 'http://argus.test');
  if (change.id) parsed.pathname = `/api/screenshots/${change.id}/image`;
  for (const [key, value] of Object.entries(change.query ?? {})) parsed.searchParams.set(key, value);
  return `${parsed.pathname}${parsed.search}`;
}

async function get(server: RunningServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  let json: { detail?: unknown; code?: unknown } | undefined;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, body, json };
}

describe('screenshot images through short-lived signed links', () => {
  let server: RunningServer;
  let shortLived: RunningServer;
  let api: Api;
  let alice: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };
  let runId: string;
  let png: Ref;
  let gif: Ref;
  let bobs: Ref;

  beforeAll(async () => {
    [server, shortLived] = await Promise.all([
      startInProcess(),
      startInProcess({ SIGNED_URL_TTL_SECONDS: '2' }),
    ]);
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    runId = await newRun(api, alice.token);
    png = await upload(api, alice.token, runId, PNG, 'image/png');
    gif = await upload(api, alice.token, runId, GIF, 'image/gif');
    bobs = await upload(api, bob.token, await newRun(api, bob.token), PNG, 'image/png');
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), shortLived?.stop()]);
  });

  it('hands out a link signed for one screenshot that opens its image without any login token', async () => {
    expect(png.url).toMatch(
      new RegExp(`^/api/screenshots/${png.id}/image\\?owner=${alice.user.id}&expires=\\d+&sig=[\\w-]{43}$`),
    );
    expect(png.url).not.toContain(alice.token);
    const expires = Number(new URL(png.url, server.url).searchParams.get('expires'));
    const now = Math.floor(Date.now() / 1000);
    // The default lifetime: ten minutes.
    expect(expires - now).toBeGreaterThan(590);
    expect(expires - now).toBeLessThanOrEqual(600);

    for (const [ref, bytes, mime] of [
      [png, PNG, 'image/png'],
      [gif, GIF, 'image/gif'],
    ] as const) {
      const image = await get(server, ref.url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe(mime);
      expect(image.body.equals(bytes)).toBe(true);
      // Cached privately, never past the link's own expiry.
      const cache = image.headers.get('cache-control') ?? '';
      expect(cache).toMatch(/^private, max-age=\d+, immutable$/);
      const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      // (+1: the server and this test read the clock at different moments, on either side of a second.)
      expect(maxAge).toBeLessThanOrEqual(expires - now + 1);
    }
  });

  it('refuses a link altered in any part: another screenshot, another owner, another expiry, another signature', async () => {
    const expires = new URL(png.url, server.url).searchParams.get('expires') as string;
    const sig = new URL(png.url, server.url).searchParams.get('sig') as string;
    const attempts = [
      // Same user's other screenshot under this one's signature.
      altered(png.url, { id: gif.id }),
      // Another user's screenshot, and this link claiming to be that user's.
      altered(png.url, { id: bobs.id }),
      altered(png.url, { query: { owner: bob.user.id } }),
      altered(bobs.url, { id: png.id }),
      altered(bobs.url, { id: png.id, query: { owner: alice.user.id } }),
      // A later expiry, and a signature not made here.
      altered(png.url, { query: { expires: String(Number(expires) + 86_400) } }),
      altered(png.url, { query: { sig: `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}` } }),
      altered(png.url, { query: { sig: 'x' } }),
    ];
    for (const path of attempts) {
      const res = await get(server, path);
      expect(res.status, path).toBe(403);
      expect(res.json, path).toEqual({ detail: 'This link is invalid or has expired', code: 'LINK_INVALID' });
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
    // The untouched links still open.
    expect((await get(server, png.url)).status).toBe(200);
    expect((await get(server, bobs.url)).status).toBe(200);
  });

  it('accepts no login token for an image: not in the query, not as a header', async () => {
    const bare = `/api/screenshots/${png.id}/image`;
    for (const res of [
      await get(server, bare),
      await get(server, `${bare}?access_token=${alice.token}`),
      await get(server, `${bare}?token=${alice.token}`),
      await get(server, bare, { authorization: `Bearer ${alice.token}` }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('takes the login token for uploads and lists only as Authorization: Bearer', async () => {
    const listPaths = [`/api/screenshots/test-run/${runId}`, `/api/screenshots/test-case/${runId}/one`];
    for (const path of listPaths) {
      const viaQuery = await api.call('GET', `${path}?access_token=${alice.token}`);
      expect(viaQuery.status, path).toBe(401);
      expect(viaQuery.data, path).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(JSON.stringify(viaQuery.data)).not.toContain('/image');
    }
    const uploadViaQuery = await api.call('POST', `/api/screenshots/upload?access_token=${alice.token}`, {
      json: {
        test_run_id: runId,
        test_case_name: 'one',
        image_data: `data:image/png;base64,${PNG.toString('base64')}`,
      },
    });
    expect(uploadViaQuery.status).toBe(401);

    // With the header: nothing was stored by the refused upload, and every listed link opens its image.
    for (const path of listPaths) {
      const list = await api.call('GET', path, { token: alice.token });
      expect(list.status, path).toBe(200);
      expect(list.data.map((s: Ref) => s.id).sort(), path).toEqual([png.id, gif.id].sort());
      for (const ref of list.data as Ref[]) {
        const image = await get(server, ref.url);
        expect(image.status).toBe(200);
        expect(image.body.equals(ref.id === png.id ? PNG : GIF)).toBe(true);
      }
    }
  });

  it('answers one screenshot by id with its signed link, to its owner only', async () => {
    const one = await api.call('GET', `/api/screenshots/${png.id}`, { token: alice.token });
    expect(one.status).toBe(200);
    expect(one.data).toMatchObject({ id: png.id, test_run_id: runId, test_case_name: 'one' });
    const image = await get(server, one.data.url);
    expect(image.status).toBe(200);
    expect(image.body.equals(PNG)).toBe(true);
    const others = await api.call('GET', `/api/screenshots/${png.id}`, { token: bob.token });
    expect(others.status).toBe(404);
    const viaQuery = await api.call('GET', `/api/screenshots/${png.id}?access_token=${alice.token}`);
    expect(viaQuery.status).toBe(401);
  });

  it('signs the links of test-run records afresh as they are read', async () => {
    const run = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: alice.token });
    const listed = await api.call('GET', '/api/automation/test-runs', { token: alice.token });
    const listedRun = listed.data.find((r: { id: string }) => r.id === runId);
    for (const paths of [run.data.screenshots_paths, listedRun.screenshots_paths] as string[][]) {
      expect(paths).toHaveLength(2);
      for (const path of paths) {
        expect(path).toMatch(/\?owner=.+&expires=\d+&sig=/);
        expect((await get(server, path)).status).toBe(200);
      }
    }
  });

  it('refuses a genuine link once its lifetime (SIGNED_URL_TTL_SECONDS) is over', async () => {
    const shortApi = client(shortLived);
    const carol = await shortApi.signUp('carol');
    const carolsRun = await newRun(shortApi, carol.token);
    const shot = await upload(shortApi, carol.token, carolsRun, PNG, 'image/png');
    const expires = Number(new URL(shot.url, shortLived.url).searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires * 1000 - Date.now()) + 100));
    const late = await get(shortLived, shot.url);
    expect(late.status).toBe(403);
    // This detail comes only after the signature checked out: the link was genuine, and is expired.
    expect(late.json).toEqual({ detail: 'This link has expired', code: 'LINK_INVALID' });
    // A list read now hands out a fresh link (lifetime 1-2 s) that opens the image again.
    const list = await shortApi.call('GET', `/api/screenshots/test-run/${carolsRun}`, { token: carol.token });
    const fresh = list.data[0] as Ref;
    expect(fresh.url).not.toBe(shot.url);
    const again = await get(shortLived, fresh.url);
    expect(again.status).toBe(200);
    expect(again.body.equals(PNG)).toBe(true);
  });
});
