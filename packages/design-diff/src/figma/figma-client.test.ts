import { AbortedError } from '@argus/engine';
import { startGzipBombServer } from '@argus/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS } from '../image';
import { type FakeFigmaApi, landingFixture, startFakeFigmaApi } from './fake-figma-api';
import { describeWait, FigmaClient, FigmaError, parseRetryAfter } from './figma-client';
import { loadFigmaDesign } from './figma-design';
import { figmaSharingInstructions } from './sharing-instructions';

const KEY = 'LandingKey1234567890';
const TOKEN = 'figd_test_token';
const { file, desktopPng } = landingFixture();
/** The landing file with its Desktop frame (1440 wide) made 100,000 px tall. */
const tallFile = structuredClone(file);
const tallFrame = tallFile.document.children![0].children!.find((c) => c.id === '1:2')!;
tallFrame.absoluteBoundingBox = { ...tallFrame.absoluteBoundingBox!, height: 100_000 };

let api: FakeFigmaApi;
beforeAll(async () => {
  api = await startFakeFigmaApi({
    tokens: [TOKEN],
    files: {
      [KEY]: { file, renders: { '1:2': desktopPng } },
      PrivateKey1234567890: { file, behaviour: 'forbidden' },
      HiddenKey12345678901: { file, behaviour: 'not_found' },
      BusyKey1234567890123: { file, renders: { '1:2': desktopPng } },
      TallKey1234567890123: { file: tallFile, renders: { '1:2': desktopPng } },
    },
  });
});
afterAll(() => api.close());

const client = (extra: Partial<ConstructorParameters<typeof FigmaClient>[0]> = {}) =>
  new FigmaClient({ token: TOKEN, apiBase: api.url, ...extra });

async function failure(promise: Promise<unknown>): Promise<FigmaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FigmaError);
  return error as FigmaError;
}

describe('FigmaClient against the fake Figma API', () => {
  it('reads a file, to a depth, with the token', async () => {
    const body = await client().getFile(KEY, { depth: 2 });
    expect(body.name).toBe('Landing');
    const page = body.document.children![0];
    expect(page.children!.map((c) => c.name)).toEqual(['Desktop', 'Mobile', 'Notes']);
    expect(page.children![0].children).toBeUndefined();
  });

  it('reads nodes; a missing node is not_found', async () => {
    const node = await client().getNode(KEY, '1:9');
    expect(node.document.name).toBe('Button / Primary');
    expect((await failure(client().getNode(KEY, '99:1'))).code).toBe('not_found');
  });

  it('renders a node and downloads the PNG', async () => {
    const png = await client().renderImage(KEY, '1:2', { scale: 1 });
    expect(png.equals(desktopPng)).toBe(true);
    expect(api.requests.some((r) => r.startsWith(`GET /v1/images/${KEY}?ids=1%3A2&format=png&scale=1`))).toBe(
      true,
    );
    expect((await failure(client().renderImage(KEY, '2:1'))).code).toBe('not_found');
  });

  it('renders a long frame at a wide viewport no larger than the comparison may decode', async () => {
    // At 7680 px the 1440×100000 frame's scale would be Figma's most, 4: 5760×400000 pixels.
    const design = await loadFigmaDesign(
      client(),
      'https://www.figma.com/design/TallKey1234567890123/Tall',
      7680,
    );
    expect(design.frame).toMatchObject({ id: '1:2', width: 1440, height: 100_000 });
    expect(design.scale).toBeLessThan(1);
    expect(1440 * design.scale * 100_000 * design.scale).toBeLessThanOrEqual(MAX_INPUT_PIXELS);
    const asked = api.requests.find((r) => r.startsWith('GET /v1/images/TallKey1234567890123?'));
    expect(Number(new URLSearchParams(asked!.split('?')[1].split(' ')[0]).get('scale'))).toBeLessThan(1);
  });

  it('loads a design for a viewport: frame, facts, render at the viewport width', async () => {
    const design = await loadFigmaDesign(client(), `https://www.figma.com/design/${KEY}/Landing`, 1920);
    expect(design.frame).toMatchObject({ id: '1:2', name: 'Desktop', width: 1440 });
    expect(design.scale).toBeCloseTo(1920 / 1440, 5);
    expect(design.facts.texts.find((t) => t.fontSize === 48)?.characters).toBe(
      'Ship better websites, faster',
    );
    expect(design.png.equals(desktopPng)).toBe(true);
    const linked = await loadFigmaDesign(
      client(),
      `https://www.figma.com/file/${KEY}/Landing?node-id=1-7`,
      390,
    );
    expect(linked.frame.name).toBe('Desktop');
  });

  it('403 on the file is permission', async () => {
    const error = await failure(client().getFile('PrivateKey1234567890'));
    expect(error).toMatchObject({ code: 'permission', status: 403 });
    expect(error.message).toMatch(/access required/i);
  });

  it('404 on the file is permission too (Figma hides private files)', async () => {
    expect(await failure(client().getFile('HiddenKey12345678901'))).toMatchObject({
      code: 'permission',
      status: 404,
    });
    expect((await failure(client().getNodes('HiddenKey12345678901', ['1:2']))).code).toBe('permission');
  });

  it('429 with Retry-After 1: tells, waits and succeeds', async () => {
    api.setBehaviour('BusyKey1234567890123', { rateLimited: { retryAfterSeconds: 1, times: 1 } });
    const told: number[] = [];
    const started = Date.now();
    const body = await client({ onRateLimited: (i) => told.push(i.retryAfterSeconds) }).getFile(
      'BusyKey1234567890123',
    );
    expect(body.name).toBe('Landing');
    expect(told).toEqual([1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('429 twice in a row is an error after the one retry', async () => {
    api.setBehaviour('BusyKey1234567890123', { rateLimited: { retryAfterSeconds: 1, times: 2 } });
    expect((await failure(client().getFile('BusyKey1234567890123'))).code).toBe('rate_limited');
  });

  it('429 with Retry-After 120: a clear error naming the wait, without waiting', async () => {
    api.setBehaviour('BusyKey1234567890123', { rateLimited: { retryAfterSeconds: 120, times: 5 } });
    const started = Date.now();
    const error = await failure(client().getFile('BusyKey1234567890123'));
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 120 });
    expect(error.message).toBe("Figma's API rate limit was reached; try again in 2 minutes.");
  });

  it('no token is auth, before any request', async () => {
    const before = api.requests.length;
    const error = await failure(client({ token: '' }).getFile(KEY));
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(/Settings.*FIGMA_TOKEN/);
    expect(api.requests.length).toBe(before);
  });

  it('a token Figma refuses is auth', async () => {
    const error = await failure(client({ token: 'figd_wrong' }).getFile(KEY));
    expect(error).toMatchObject({ code: 'auth', status: 403 });
  });

  it('stops reading an answer that inflates past its cap, naming the limit', async () => {
    const bomb = await startGzipBombServer();
    try {
      const error = await failure(client({ apiBase: bomb.url, maxJsonBytes: 1024 * 1024 }).getFile(KEY));
      expect(error).toMatchObject({
        code: 'bad_response',
        message:
          "Figma's answer is larger than 1 MB (counted after decompression), the most that is read; it was not read further",
      });
    } finally {
      await bomb.close();
    }
  });

  it('an unreachable API is network', async () => {
    const error = await failure(client({ apiBase: 'http://127.0.0.1:1' }).getFile(KEY));
    expect(error.code).toBe('network');
  });

  it('stops through the AbortSignal, also during a rate-limit wait', async () => {
    const aborted = new AbortController();
    aborted.abort();
    await expect(client({ signal: aborted.signal }).getFile(KEY)).rejects.toBeInstanceOf(AbortedError);

    api.setBehaviour('BusyKey1234567890123', { rateLimited: { retryAfterSeconds: 20, times: 1 } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client({ signal: controller.signal, onRateLimited: () => controller.abort() }).getFile(
      'BusyKey1234567890123',
    );
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('uses FIGMA_API_BASE when no base is given', () => {
    const saved = process.env.FIGMA_API_BASE;
    process.env.FIGMA_API_BASE = 'http://127.0.0.1:9/';
    try {
      expect(new FigmaClient({ token: 'x' }).apiBase).toBe('http://127.0.0.1:9');
    } finally {
      if (saved === undefined) delete process.env.FIGMA_API_BASE;
      else process.env.FIGMA_API_BASE = saved;
    }
  });
});

describe('retry and wait texts', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('names waits in words', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(45)).toBe('45 seconds');
    expect(describeWait(120)).toBe('2 minutes');
    expect(describeWait(3900)).toBe('1 hour 5 minutes');
  });
});

describe('figmaSharingInstructions', () => {
  it('gives both ways to share, with the service account when configured', () => {
    const out = figmaSharingInstructions({
      figma_url: `https://www.figma.com/design/${KEY}/Landing`,
      service_account_email: 'argus-bot@example.com',
    });
    expect(out.title).toBe('Figma File Access Required');
    expect(out.file_key).toBe(KEY);
    expect(out.instructions).toContain('Anyone with the link can view');
    expect(out.instructions).toContain('Enter argus-bot@example.com.');
    expect(out.instructions).toContain("'Can view'");
    expect(out.error_context).toBe('general');
  });

  it('works without a link or an email', () => {
    const out = figmaSharingInstructions({ figma_url: 'https://example.com/x' });
    expect(out.file_key).toBeNull();
    expect(out.service_account_email).toBeNull();
    expect(out.options).toHaveLength(2);
  });
});
