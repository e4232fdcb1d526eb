import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startScriptedModelServer } from '@argus/ai/testing';
import {
  type FakeFigmaApi,
  landingFixture,
  pngHeaderOnly,
  startFakeFigmaApi,
} from '@argus/design-diff/testing';
import {
  ComparisonResultsSchema,
  ComparisonSummaryListSchema,
  MAX_UPLOAD_BYTES,
  StoredComparisonSchema,
  UploadedDesignSchema,
} from '@argus/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingPage } from '../../../../fixtures/design/landing';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import type { RunningServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

/**
 * Design comparison against the real server, Chromium and a fake Figma API, on one server: uploads
 * over HTTP (the shape, the signed links, every kind of bad file), comparisons over the socket (an
 * uploaded image, a Figma file, its 403 and 429, refusals), a stop, the stored results, and the
 * optional visual review by a user's model (the scripted model server).
 */

const TOKEN = 'figma-test-token';
const FILE_KEY = 'LandingKey1234567890';
const PRIVATE_KEY = 'PrivateKey1234567890';
const BUSY_KEY = 'BusyKey1234567890123';
const DESKTOP = { desktop: { width: 1024, height: 700 } };

interface User {
  token: string;
  id: string;
}

describe('design comparison (real server, Chromium, fake Figma)', () => {
  let server: RunningServer;
  let site: Server;
  let siteUrl: string;
  let figma: FakeFigmaApi;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;
  let session: string;
  let tab: TestSocket;
  let bobTab: TestSocket;
  const { file, desktopPng } = landingFixture();

  const connect = async (user: User) => {
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${user.id}?token=${user.token}`);
    await socket.next('connection_established', 20_000);
    return socket;
  };
  const upload = (token: string | undefined, data: Buffer, filename = 'design.png', type = 'image/png') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), filename);
    return api.call('POST', '/api/uploads', { token, body: form });
  };
  const get = (path: string) => fetch(`${server.url}${path}`);
  /**
   * The comparison's end: the first completed or error message not yet taken. Polled from the queue
   * rather than raced with two `next`s, whose loser would stay registered and take a later message.
   */
  const outcome = async (socket: TestSocket, timeoutMs = 90_000): Promise<Message> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = socket.messages.find(
        (m) => m.type === 'vision_comparison_completed' || m.type === 'vision_comparison_error',
      );
      if (found) {
        socket.messages.splice(socket.messages.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline) throw new Error('no end of the comparison');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** Waits for one message of `type`, leaving others queued (unlike racing two `next`s). */
  const take = async (socket: TestSocket, type: string, timeoutMs = 90_000): Promise<Message> =>
    socket.next(type, timeoutMs);

  beforeAll(async () => {
    site = createServer((req, res) => {
      // `/slow` never answers: a comparison of it waits in the capture until it is stopped.
      if (req.url === '/slow') return;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(landingPage('clean'));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    figma = await startFakeFigmaApi({
      tokens: [TOKEN],
      files: {
        [FILE_KEY]: { file, renders: { '1:2': desktopPng } },
        [PRIVATE_KEY]: { file, behaviour: 'forbidden' },
        [BUSY_KEY]: { file, behaviour: { rateLimited: { retryAfterSeconds: 120, times: 1000 } } },
      },
    });
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      FIGMA_TOKEN: TOKEN,
      FIGMA_TOKEN_SHARED: 'true',
      FIGMA_API_BASE: figma.url,
    });
    api = client(server);
    const a = await api.signUp('alice');
    const b = await api.signUp('bob');
    alice = { token: a.token, id: a.user.id };
    bob = { token: b.token, id: b.user.id };
    const created = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'Design', session_type: 'figma-comparison', url: `${siteUrl}/` },
    });
    session = created.data.id;
    tab = await connect(alice);
    bobTab = await connect(bob);
  }, 180_000);
  afterAll(async () => {
    tab?.ws.close(1000);
    bobTab?.ws.close(1000);
    await server?.stop();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
    await figma?.close();
  });

  it('stores an upload and serves it and its thumbnail through signed links, to no one else', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const res = await upload(alice.token, png, '../../etc/My <Design>.png', 'text/plain');
    expect(res.status).toBe(201);
    const uploaded = UploadedDesignSchema.parse(res.data);
    expect(uploaded).toMatchObject({
      filename: 'My Design.png',
      content_type: 'image/png',
      width: 800,
      height: 600,
      size: png.length,
    });
    const image = await get(uploaded.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await get(uploaded.thumbnail_url!);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.width).toBe(320);

    // No signature: 401; the signature moved to another owner or another kind of link: 403.
    expect((await get(uploaded.url.split('?')[0])).status).toBe(401);
    expect((await get(uploaded.url.replace(`owner=${alice.id}`, `owner=${bob.id}`))).status).toBe(403);
    expect((await get(uploaded.url.replace('/image?', '/thumbnail?'))).status).toBe(403);
    // Without a login no upload is taken.
    expect((await upload(undefined, png)).status).toBe(401);
  });

  it('refuses bad files clearly, storing nothing, and keeps serving', async () => {
    const text = await upload(alice.token, Buffer.from('just some text, not an image'), 'notes.png');
    expect(text).toMatchObject({
      status: 415,
      data: { detail: 'Please select an image file: PNG, JPEG, GIF or WebP' },
    });

    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('this is text wearing a PNG signature'),
    ]);
    const fake = await upload(alice.token, fakePng);
    expect(fake.status).toBe(422);
    expect(fake.data.detail[0].msg).toMatch(/could not be read/);

    const big = await upload(alice.token, Buffer.alloc(MAX_UPLOAD_BYTES + 1024 * 1024, 1), 'big.png');
    expect(big).toMatchObject({ status: 413, data: { detail: 'File size must be less than 10MB' } });

    const huge = pngHeaderOnly(30_000, 30_000);
    expect(huge.length).toBeLessThan(10_000);
    const refused = await upload(alice.token, huge, 'huge.png');
    expect(refused.status).toBe(422);
    expect(refused.data.detail[0].msg).toMatch(
      /30000×30000 pixels; a design may be at most 16384 pixels a side/,
    );

    const json = await api.call('POST', '/api/uploads', { token: alice.token, json: { file: 'x' } });
    expect(json.status).toBe(415);

    // Nothing of these was stored: the server still answers, and the user's storage holds only the good upload.
    expect((await api.call('GET', '/api/health')).status).toBe(200);
  });

  it('compares an uploaded design with the page, and its own capture scores high; the results are stored', async () => {
    // The socket's upload: answered with the upload's links.
    // Taller than the page, so the whole page is compared (and its whole capture kept).
    const design = await sharp({ create: { width: 1024, height: 3000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    tab.send(
      'upload_and_compare_image',
      {
        image_data: `data:image/png;base64,${design.toString('base64')}`,
        filename: 'blank.png',
        session_id: session,
      },
      'up-1',
    );
    const uploaded = await take(tab, 'upload_completed', 20_000);
    expect(uploaded).toMatchObject({
      session_id: session,
      request_id: 'up-1',
      data: { filename: 'blank.png' },
    });

    // A blank design against the landing page: a low score, with the page's capture to look at.
    tab.send(
      'figma_website_comparison',
      {
        comparison_type: 'image',
        file_id: uploaded.data.file_id,
        website_url: `${siteUrl}/`,
        session_id: session,
        viewports: DESKTOP,
      },
      'cmp-1',
    );
    const first = await outcome(tab);
    expect(first.type, JSON.stringify(first.data)).toBe('vision_comparison_completed');
    expect(first).toMatchObject({ session_id: session, request_id: 'cmp-1' });
    const progress = tab.all.filter(
      (m) => m.type === 'vision_comparison_progress' && m.request_id === 'cmp-1',
    );
    expect(progress.length).toBeGreaterThan(3);
    const percents = progress.map((m) => m.data.progress_percentage as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    const blank = ComparisonResultsSchema.parse(first.data.results);
    expect(blank.engine).toBe('Argus design-diff (pixel, SSIM, CIEDE2000)');
    expect(blank.specific_issues.length).toBeGreaterThan(0);
    const images = blank.viewport_images.desktop;
    expect(images).toMatchObject({ width: 1024 });
    const capture = Buffer.from(await (await get(images.site_url)).arrayBuffer());
    expect((await sharp(capture).metadata()).width).toBe(1024);

    // The page's own capture as the design: near identical.
    const again = await upload(alice.token, capture, 'capture.png');
    expect(again.status).toBe(201);
    tab.send(
      'figma_website_comparison',
      {
        comparison_type: 'image',
        file_id: again.data.file_id,
        website_url: `${siteUrl}/`,
        session_id: session,
        viewports: DESKTOP,
      },
      'cmp-2',
    );
    const second = await outcome(tab);
    expect(second.type, JSON.stringify(second.data)).toBe('vision_comparison_completed');
    const own = ComparisonResultsSchema.parse(second.data.results);
    expect(own.overall_similarity).toBeGreaterThanOrEqual(95);
    expect(own.quality_rating).toBe('Excellent');
    expect(blank.overall_similarity).toBeLessThan(own.overall_similarity);

    // Reopened later: the latest comparison, links signed afresh; another user gets 404.
    const stored = await api.call('GET', `/api/comparisons/${session}`, { token: alice.token });
    expect(stored.status).toBe(200);
    const reopened = StoredComparisonSchema.parse(stored.data);
    expect(reopened).toMatchObject({
      session_id: session,
      comparison_type: 'image',
      file_id: again.data.file_id,
      design: { file_id: again.data.file_id, filename: 'capture.png', size: capture.length },
    });
    expect((await get(reopened.design!.thumbnail_url!)).status).toBe(200);
    expect(reopened.results.overall_similarity).toBe(own.overall_similarity);
    expect((await get(reopened.results.viewport_images.desktop.design_url)).status).toBe(200);
    expect((await api.call('GET', `/api/comparisons/${session}`, { token: bob.token })).status).toBe(404);
    // Listed among Alice's past comparisons (the session's latest), and not among Bob's.
    const past = await api.call('GET', '/api/comparisons?limit=5', { token: alice.token });
    expect(past.status).toBe(200);
    expect(ComparisonSummaryListSchema.parse(past.data).find((c) => c.session_id === session)).toMatchObject({
      comparison_type: 'image',
      filename: 'capture.png',
      overall_similarity: own.overall_similarity,
    });
    const bobs = ComparisonSummaryListSchema.parse(
      (await api.call('GET', '/api/comparisons', { token: bob.token })).data,
    );
    expect(bobs.some((c) => c.session_id === session)).toBe(false);
    expect((await api.call('GET', '/api/comparisons/no-such-session', { token: alice.token })).status).toBe(
      404,
    );

    // Bob cannot compare with Alice's upload.
    bobTab.send('figma_website_comparison', {
      comparison_type: 'image',
      file_id: again.data.file_id,
      website_url: `${siteUrl}/`,
      viewports: DESKTOP,
    });
    expect((await take(bobTab, 'vision_comparison_error', 10_000)).data.error).toBe(
      'The uploaded design was not found; upload it again',
    );
  }, 240_000);

  it('refuses bad requests over the socket with a clear error', async () => {
    const ask = async (data: Record<string, unknown>) => {
      tab.send('figma_website_comparison', { session_id: session, viewports: DESKTOP, ...data });
      return (await take(tab, 'vision_comparison_error', 10_000)).data.error;
    };
    expect(
      await ask({
        comparison_type: 'figma',
        figma_url: 'https://example.com/file/abc',
        website_url: `${siteUrl}/`,
      }),
    ).toBe('Please enter a valid Figma file URL');
    expect(
      await ask({ comparison_type: 'image', file_id: 'not-an-upload', website_url: `${siteUrl}/` }),
    ).toBe('The uploaded design was not found; upload it again');
    // The browser may never open link-local addresses (cloud metadata).
    const uploaded = await upload(alice.token, desktopPng);
    expect(
      await ask({
        comparison_type: 'image',
        file_id: uploaded.data.file_id,
        website_url: 'http://169.254.169.254/',
      }),
    ).toMatch(/^The website cannot be compared: /);
    // Not http(s): the message itself is refused, about the design screen.
    tab.send('figma_website_comparison', {
      comparison_type: 'image',
      file_id: uploaded.data.file_id,
      website_url: 'ftp://example.com/',
      session_id: session,
    });
    expect(await take(tab, 'error', 10_000)).toMatchObject({
      session_id: session,
      data: { code: 'VALIDATION', feature: 'design' },
    });
    // A text file posing as an image over the socket.
    tab.send('upload_and_compare_image', {
      image_data: 'data:image/png;base64,aGVsbG8gd29ybGQ=',
      session_id: session,
    });
    expect((await take(tab, 'vision_comparison_error', 10_000)).data.error).toBe(
      'Please select an image file: PNG, JPEG, GIF or WebP',
    );
    tab.send('get_figma_help', {
      figma_url: `https://www.figma.com/design/${FILE_KEY}/Landing`,
      session_id: session,
    });
    const help = await take(tab, 'figma_sharing_instructions', 10_000);
    expect(help).toMatchObject({
      session_id: session,
      data: { title: 'Figma File Access Required', file_key: FILE_KEY },
    });
  });

  it('compares with a Figma file, and says what to do on 403 and 429', async () => {
    tab.send('figma_website_comparison', {
      comparison_type: 'figma',
      figma_url: `https://www.figma.com/design/${FILE_KEY}/Landing`,
      website_url: `${siteUrl}/`,
      session_id: session,
      // The fixture's Mobile frame (2:1) has no render: that viewport is skipped, not the comparison.
      viewports: { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } },
    });
    const done = await outcome(tab);
    expect(done.type, JSON.stringify(done.data)).toBe('vision_comparison_completed');
    const results = ComparisonResultsSchema.parse(done.data.results);
    expect(results.engine).toContain('Figma node styles');
    // Figma's node styles against the page's computed ones: the nav link 'Pricing' is 16 px in the design
    // and 15 px on the page: a fix, and an issue placed on the page.
    expect(results.css_fixes).toContainEqual(
      expect.objectContaining({ property: 'font-size', current_value: '15px', recommended_value: '16px' }),
    );
    expect(
      results.specific_issues.some(
        (i) =>
          i.kind === 'typography' &&
          /differs from Figma: font-size/.test(i.issue) &&
          i.location?.viewport === 'desktop',
      ),
    ).toBe(true);
    expect(results.viewport_images.desktop.width).toBe(1440);
    expect(results.viewport_images.mobile).toBeUndefined();
    expect(results.viewport_analysis.mobile).toBe(
      'Not compared: Figma could not render node 2:1 (it may be empty or invisible).',
    );
    expect(figma.requests.some((r) => r.startsWith(`GET /v1/images/${FILE_KEY}`))).toBe(true);
    const stored = StoredComparisonSchema.parse(
      (await api.call('GET', `/api/comparisons/${session}`, { token: alice.token })).data,
    );
    expect(stored).toMatchObject({ comparison_type: 'figma', figma_url: expect.stringContaining(FILE_KEY) });

    tab.send('figma_website_comparison', {
      comparison_type: 'figma',
      figma_url: `https://www.figma.com/file/${PRIVATE_KEY}/Private`,
      website_url: `${siteUrl}/`,
      session_id: session,
      viewports: DESKTOP,
    });
    const permission = await take(tab, 'figma_permission_error', 20_000);
    expect(permission).toMatchObject({ session_id: session, data: { file_key: PRIVATE_KEY } });
    expect((await take(tab, 'vision_comparison_error', 10_000)).data.error).toBe(
      'Figma file access required. Please share your file.',
    );

    tab.send('figma_website_comparison', {
      comparison_type: 'figma',
      figma_url: `https://www.figma.com/file/${BUSY_KEY}/Busy`,
      website_url: `${siteUrl}/`,
      session_id: session,
      viewports: DESKTOP,
    });
    expect((await take(tab, 'vision_comparison_error', 20_000)).data.error).toMatch(
      /rate limit was reached; try again in 2 minutes/,
    );
  }, 180_000);

  it('stops a comparison when asked, and a new one can start after', async () => {
    const uploaded = await upload(alice.token, desktopPng);
    tab.send(
      'figma_website_comparison',
      {
        comparison_type: 'image',
        file_id: uploaded.data.file_id,
        website_url: `${siteUrl}/slow`,
        session_id: session,
        viewports: DESKTOP,
      },
      'slow-1',
    );
    // Under way: it says it is capturing; a second one meanwhile is refused.
    for (;;) {
      const m = await take(tab, 'vision_comparison_progress', 20_000);
      if (m.request_id === 'slow-1' && /Capturing/.test(String(m.data.message))) break;
    }
    tab.send('figma_website_comparison', {
      comparison_type: 'image',
      file_id: uploaded.data.file_id,
      website_url: `${siteUrl}/`,
      session_id: session,
      viewports: DESKTOP,
    });
    expect((await take(tab, 'vision_comparison_error', 10_000)).data.error).toMatch(/already running/);
    const stopAsked = performance.now();
    tab.send('stop_comparison', { session_id: session }, 'stop-1');
    const stopped = await take(tab, 'vision_comparison_error', 20_000);
    // A figure for docs (issue 11: a stop within 1 s), printed, not asserted.
    console.log(`stop_comparison answered after ${Math.round(performance.now() - stopAsked)} ms`);
    expect(stopped).toMatchObject({
      session_id: session,
      request_id: 'stop-1',
      data: { error: 'Comparison stopped' },
    });
    // It ended: nothing completed, and a new comparison starts.
    expect(tab.all.some((m) => m.type === 'vision_comparison_completed' && m.request_id === 'slow-1')).toBe(
      false,
    );
    tab.send(
      'figma_website_comparison',
      {
        comparison_type: 'image',
        file_id: uploaded.data.file_id,
        website_url: `${siteUrl}/`,
        session_id: session,
        viewports: DESKTOP,
      },
      'after-1',
    );
    const after = await outcome(tab);
    expect(after).toMatchObject({ type: 'vision_comparison_completed', request_id: 'after-1' });
  }, 180_000);
  it('stores the results of a comparison whose socket closed', async () => {
    const created = await api.call('POST', '/api/sessions/', {
      token: bob.token,
      json: { title: 'Bob design', session_type: 'figma-comparison', url: `${siteUrl}/` },
    });
    const bobSession = created.data.id as string;
    const uploaded = await upload(bob.token, desktopPng);
    bobTab.send('figma_website_comparison', {
      comparison_type: 'image',
      file_id: uploaded.data.file_id,
      website_url: `${siteUrl}/`,
      session_id: bobSession,
      viewports: DESKTOP,
    });
    await take(bobTab, 'vision_comparison_progress', 20_000);
    // His only tab goes away while the comparison runs; it finishes and is stored all the same.
    bobTab.ws.close(1000);
    await bobTab.closed;
    const deadline = Date.now() + 90_000;
    let stored = await api.call('GET', `/api/comparisons/${bobSession}`, { token: bob.token });
    while (stored.status === 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      stored = await api.call('GET', `/api/comparisons/${bobSession}`, { token: bob.token });
    }
    expect(stored.status).toBe(200);
    expect(StoredComparisonSchema.parse(stored.data)).toMatchObject({
      session_id: bobSession,
      file_id: uploaded.data.file_id,
    });
  }, 120_000);
  it('adds the visual review of a user’s model that sees images, and completes without it when the model fails', async () => {
    const KEY = 'sk-review-5555';
    const model = await startScriptedModelServer(() => ({
      json: {
        recommendations: [
          {
            suggestion: 'The hero heading is bolder on the site than in the design',
            priority: 'medium',
            category: 'typography',
            impact: 'The page feels heavier than intended.',
            solution: 'h1 { font-weight: 600; }',
          },
        ],
      },
    }));
    let socket: TestSocket | undefined;
    try {
      const carol = await api.signUp('carol');
      const user = { token: carol.token, id: carol.user.id };
      const saved = await api.call('PUT', '/api/settings', {
        token: user.token,
        json: { ai_provider: 'openai', ai_model: 'gpt-4o', ai_base_url: model.baseUrl, ai_api_key: KEY },
      });
      expect(saved.status).toBe(200);
      const created = await api.call('POST', '/api/sessions/', {
        token: user.token,
        json: { title: 'Carol design', session_type: 'figma-comparison', url: `${siteUrl}/` },
      });
      const carolSession = created.data.id as string;
      socket = await connect(user);
      const uploaded = await upload(user.token, desktopPng);
      const compare = (requestId: string) =>
        socket!.send(
          'figma_website_comparison',
          {
            comparison_type: 'image',
            file_id: uploaded.data.file_id,
            website_url: `${siteUrl}/`,
            session_id: carolSession,
            viewports: DESKTOP,
          },
          requestId,
        );

      compare('review-1');
      const done = await outcome(socket);
      expect(done.type, JSON.stringify(done.data)).toBe('vision_comparison_completed');
      const results = ComparisonResultsSchema.parse(done.data.results);
      const engine = 'LLM (openai · gpt-4o)';
      expect(results.engine).toBe(
        `Argus design-diff (pixel, SSIM, CIEDE2000) + AI visual review (${engine})`,
      );
      expect(results.recommendations).toContainEqual(
        expect.objectContaining({
          suggestion: 'AI review: The hero heading is bolder on the site than in the design',
          category: 'typography',
          impact: `The page feels heavier than intended. (AI visual review by ${engine}; not measured)`,
        }),
      );
      // One call, with the design and the capture.
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0].images).toBe(2);
      expect(
        socket.all.some(
          (m) =>
            m.type === 'vision_comparison_progress' &&
            m.data.message === `Asking ${engine} for a visual review`,
        ),
      ).toBe(true);
      // The call is the user's: counted in their usage.
      const settings = await api.call('GET', '/api/settings', { token: user.token });
      expect(settings.data.usage.model_calls).toBe(1);

      // The model refuses the key: the measured results arrive all the same, with a note why the review is missing.
      model.respondWith(() => ({ status: 401, message: 'Invalid API key' }));
      compare('review-2');
      const without = await outcome(socket);
      expect(without.type, JSON.stringify(without.data)).toBe('vision_comparison_completed');
      const measured = ComparisonResultsSchema.parse(without.data.results);
      expect(measured.engine).toBe('Argus design-diff (pixel, SSIM, CIEDE2000)');
      expect(measured.recommendations.some((r) => r.suggestion?.startsWith('AI review: '))).toBe(false);
      expect(measured.minor_differences.some((d) => d.startsWith('AI visual review unavailable: '))).toBe(
        true,
      );
      expect(model.requests).toHaveLength(2);
      expect(server.output()).not.toContain(KEY);
    } finally {
      socket?.ws.close(1000);
      await model.close();
    }
  }, 180_000);
});
