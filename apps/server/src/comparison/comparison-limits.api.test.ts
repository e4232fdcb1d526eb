import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ComparisonResultsSchema, UploadedDesignSchema } from '@argus/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import type { RunningServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

/**
 * Design comparison under hostile sizes and floods, in a server of its own (a process that runs out
 * of memory takes only itself down, and its peak memory is its own): a small design compared at a
 * very wide viewport (the resize bomb), requests over the pixel limits, uploads past the quota, many
 * uploads at once, and the upload rate limit.
 */

const MiB = 1024 * 1024;
/** The server's peak resident memory (VmHWM), in MiB; null once the process is gone. */
function peakMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Math.round((kb * 1024) / MiB);
  } catch {
    return null;
  }
}

/** Of what a comparison answers, the first end not yet taken: completed, its error, or a socket `error`. */
async function outcome(socket: TestSocket, alive: () => boolean, timeoutMs = 120_000): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = socket.messages.find((m) =>
      ['vision_comparison_completed', 'vision_comparison_error', 'error'].includes(m.type),
    );
    if (found) {
      socket.messages.splice(socket.messages.indexOf(found), 1);
      return found;
    }
    if (!alive()) throw new Error('the server died before answering');
    if (Date.now() > deadline) throw new Error('no end of the comparison');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('design comparison limits (a server of its own)', () => {
  let server: RunningServer;
  let site: Server;
  let siteUrl: string;
  let api: ReturnType<typeof client>;
  let token: string;
  let userId: string;
  let session: string;
  let tab: TestSocket;
  const alive = () => peakMiB(server.pid) !== null;

  const upload = (data: Buffer, filename = 'design.png') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), filename);
    return api.call('POST', '/api/uploads', { token, body: form });
  };

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html><body style="margin:0"><div style="height:120px;background:#3366cc"></div><p>Short page</p></body></html>',
        );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      MAX_STORED_BYTES_PER_USER: String(3 * MiB),
      UPLOADS_PER_USER: '12',
      // The socket's own message rate is not what these tests are about.
      WS_MESSAGES_PER_SECOND: '100',
      WS_MESSAGE_BURST: '100',
    });
    api = client(server);
    const signed = await api.signUp('carol');
    token = signed.token;
    userId = signed.user.id;
    const created = await api.call('POST', '/api/sessions/', {
      token,
      json: { title: 'Limits', session_type: 'figma-comparison', url: `${siteUrl}/` },
    });
    session = created.data.id;
    tab = openSocket(`${server.url.replace('http', 'ws')}/ws/${userId}?token=${token}`);
    await tab.next('connection_established', 20_000);
  }, 180_000);
  afterAll(async () => {
    tab?.ws.close(1000);
    await server?.stop();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('compares a narrow, very tall design at a very wide viewport within bounded memory, and keeps serving', async () => {
    // 780×16384 is within the upload limits; scaled whole to 7680 px wide it would be 7680×161319
    // (4.9 GB of RGBA). Only what is compared may be decoded: the page's height, here 200 px.
    const tall = await sharp({ create: { width: 780, height: 16_384, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const uploaded = await upload(tall, 'tall.png');
    expect(uploaded.status, JSON.stringify(uploaded.data)).toBe(201);
    const before = peakMiB(server.pid)!;
    tab.send(
      'figma_website_comparison',
      {
        comparison_type: 'image',
        file_id: UploadedDesignSchema.parse(uploaded.data).file_id,
        website_url: `${siteUrl}/`,
        session_id: session,
        viewports: { wide: { width: 7680, height: 200 } },
      },
      'wide-1',
    );
    const end = await outcome(tab, alive);
    const peak = peakMiB(server.pid);
    console.log(`resize bomb: server peak RSS ${before} MiB before, ${peak} MiB after the comparison`);
    expect(end.type, JSON.stringify(end.data).slice(0, 500)).toBe('vision_comparison_completed');
    const wide = ComparisonResultsSchema.parse(end.data.results).viewport_images.wide;
    expect(wide.width).toBe(7680);
    expect(wide.height).toBeLessThanOrEqual(400);
    // The design was cut to the compared height before it was scaled: the peak barely moves (scaled
    // whole, the design alone is 4.6 GiB of RGBA; the old code went past 4 GiB and then crashed).
    expect(peak! - before).toBeLessThan(400);
    expect(peak).toBeLessThan(2048);
    expect((await api.call('GET', '/api/health')).status).toBe(200);
  }, 180_000);

  it('refuses viewports past the pixel limits with a socket error naming the limit, before any capture', async () => {
    const uploaded = await upload(
      await sharp({ create: { width: 800, height: 600, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer(),
    );
    const ask = async (viewports: Record<string, { width: number; height: number }>) => {
      tab.send(
        'figma_website_comparison',
        {
          comparison_type: 'image',
          file_id: uploaded.data.file_id,
          website_url: `${siteUrl}/`,
          session_id: session,
          viewports,
        },
        'too-large',
      );
      return outcome(tab, alive, 20_000);
    };
    const huge = await ask({ huge: { width: 7680, height: 7680 } });
    expect(huge).toMatchObject({
      type: 'error',
      session_id: session,
      data: {
        code: 'COMPARISON_TOO_LARGE',
        feature: 'design',
        message:
          'The huge viewport is 7680×7680 = 58,982,400 pixels; one viewport may have at most 33,177,600.',
      },
    });
    const three = Object.fromEntries(['a', 'b', 'c'].map((n) => [n, { width: 7680, height: 4320 }]));
    expect((await ask(three)).data).toEqual({
      code: 'COMPARISON_TOO_LARGE',
      feature: 'design',
      message:
        'These 3 viewports take 99,532,800 pixels together; one comparison may measure at most 66,355,200 (COMPARISON_MAX_PIXELS).',
    });
    // Refused before anything started: no progress was ever reported for these requests.
    expect(
      tab.all.filter((m) => m.type === 'vision_comparison_progress' && m.request_id === 'too-large'),
    ).toEqual([]);
  }, 60_000);

  it('checks the storage quota from the base64 length, before decoding a socket upload', async () => {
    // About 3.3 MB once decoded, past the 3 MiB quota. Not even an image: a decode would have said so.
    const image = `data:image/png;base64,${'A'.repeat(4_400_000)}`;
    tab.send('upload_and_compare_image', { image_data: image, filename: 'big.png', session_id: session });
    const refused = await outcome(tab, alive, 20_000);
    expect(refused).toMatchObject({
      type: 'error',
      data: { code: 'STORAGE_QUOTA_EXCEEDED', feature: 'design' },
    });
    expect(refused.data.message).toMatch(
      /^This design \(3\.\d+ MiB\) would take your stored files past your storage quota of 3 MiB \(MAX_STORED_BYTES_PER_USER; /,
    );
  }, 60_000);

  it('takes one upload of a user at a time: the rest of a burst is refused at once, nothing decoded', async () => {
    const noise = await sharp(
      Buffer.from(Array.from({ length: 400 * 300 * 3 }, (_, i) => (i * 7919) % 251)),
      {
        raw: { width: 400, height: 300, channels: 3 },
      },
    )
      .png()
      .toBuffer();
    const image = `data:image/png;base64,${noise.toString('base64')}`;
    for (let i = 0; i < 4; i++)
      tab.send('upload_and_compare_image', { image_data: image, session_id: session }, `burst-${i}`);
    const answers: Message[] = [];
    while (answers.length < 4) {
      const found = tab.messages.find(
        (m) => String(m.request_id).startsWith('burst-') && ['upload_completed', 'error'].includes(m.type),
      );
      if (found) {
        tab.messages.splice(tab.messages.indexOf(found), 1);
        answers.push(found);
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const busy = answers.filter((m) => m.type === 'error');
    expect(answers.filter((m) => m.type === 'upload_completed').length).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const m of busy)
      expect(m.data).toEqual({
        code: 'COMPARISON_BUSY',
        feature: 'design',
        message:
          'A design upload of yours is still being processed: send the next one once it has finished (one at a time).',
      });
  }, 60_000);

  it('rate-limits POST /api/uploads per user with 429 naming UPLOADS_PER_USER', async () => {
    const dave = await api.signUp('dave');
    const tiny = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const send = (as: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(tiny)], { type: 'image/png' }), 'tiny.png');
      return api.call('POST', '/api/uploads', { token: as, body: form });
    };
    for (let i = 0; i < 12; i++) expect((await send(dave.token)).status).toBe(201);
    const limited = await send(dave.token);
    expect(limited.status).toBe(429);
    expect(limited.data.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.data.detail).toMatch(
      /^Too many design uploads: at most 12 every 15 minutes \(UPLOADS_PER_USER, RATE_LIMIT_WINDOW_SECONDS\)\. Try again in \d+ s\.$/,
    );
    // Another user's uploads are counted apart.
    const erin = await api.signUp('erin');
    expect((await send(erin.token)).status).toBe(201);
  }, 60_000);
});
