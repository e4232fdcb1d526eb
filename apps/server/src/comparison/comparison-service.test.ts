import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repositories } from '@argus/db';
import type { BrowserSession } from '@argus/engine';
import { AbortedError } from '@argus/engine';
import type { ServerMessageInput } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { BrowserBudget } from '../limits/quotas';
import { BlobStore } from '../storage/blob-store';
import { createSignedUrls } from '../storage/signed-urls';
import { ALREADY_COMPARING, COMPARISON_STOPPED, ComparisonService } from './comparison-service';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
const USER = 'user-1';
const UPLOAD = '11111111-1111-4111-8111-111111111111';

/** A browser session whose navigation never ends until it is aborted. */
function hangingSession(closed: { count: number }): BrowserSession {
  return {
    navigate: (_url: string, options?: { signal?: AbortSignal }) =>
      new Promise((_resolve, reject) => {
        options?.signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true });
      }),
    close: async () => {
      closed.count++;
    },
  } as unknown as BrowserSession;
}

/** A comparison service on fakes: the given browser, session check and upload store. */
function fakeService(
  deps: Pick<ConstructorParameters<typeof ComparisonService>[0], 'activities' | 'openSession'> & {
    blobs: BlobStore;
    upload: (userId: string, id: string) => Promise<unknown>;
    addComparison?: () => unknown;
    checkSession?: () => Promise<void>;
  },
): ComparisonService {
  return new ComparisonService({
    config: {
      figmaApiBase: 'http://figma.invalid',
      maxStoredBytesPerUser: 1e9,
      comparisonImageConcurrency: 2,
      comparisonMaxPixels: 7680 * 4320 * 2,
      uploadsPerUser: 60,
      rateLimitWindowSeconds: 900,
    },
    repos: {
      designComparisons: { upload: deps.upload, addComparison: deps.addComparison ?? vi.fn() },
    } as unknown as Repositories,
    blobs: deps.blobs,
    urls: createSignedUrls({ secret: new Uint8Array(32), ttlSeconds: 60 }),
    activities: deps.activities,
    openSession: deps.openSession,
    policy: { check: async () => ({ allowed: true, host: 'site.test' }) as never },
    figmaToken: async () => undefined,
    checkSession: deps.checkSession ?? (async () => {}),
    log,
  });
}

describe('ComparisonService (fakes)', () => {
  let dir: string;
  let blobs: BlobStore;
  let sha: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'argus-cmp-'));
    blobs = new BlobStore(dir);
    sha = await blobs.put(
      await sharp({ create: { width: 800, height: 100, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stops a comparison in its capture: the session closes, nothing is stored, the stop is said once', async () => {
    const closed = { count: 0 };
    const addComparison = vi.fn();
    const activities = new ActivityRegistry({ browsers: new BrowserBudget(2), log });
    const service = fakeService({
      activities,
      blobs,
      upload: async (userId, id) =>
        userId === USER && id === UPLOAD ? { id, user_id: USER, sha256: sha } : undefined,
      addComparison,
      openSession: async () => hangingSession(closed),
    });
    const toSender: ServerMessageInput[] = [];
    const toAll: ServerMessageInput[] = [];
    const send = {
      reply: (m: ServerMessageInput) => toSender.push(m),
      broadcast: (m: ServerMessageInput) => toAll.push(m),
    };
    const data = {
      comparison_type: 'image' as const,
      file_id: UPLOAD,
      website_url: 'https://site.test/',
      session_id: 's1',
      // Two viewports the 800 px design was drawn for, so the comparison holds two browsers.
      viewports: { desktop: { width: 800, height: 600 }, 'desktop-tall': { width: 800, height: 900 } },
    };
    await service.compare(USER, data, send);
    expect(activities.list(USER, { feature: 'design' })).toHaveLength(1);
    // A second comparison meanwhile: refused to the asking socket only.
    await service.compare(USER, data, send);
    expect(toSender).toEqual([
      { type: 'vision_comparison_error', session_id: 's1', data: { error: ALREADY_COMPARING } },
    ]);
    await vi.waitFor(() =>
      expect(
        toAll.some(
          (m) =>
            m.type === 'vision_comparison_progress' &&
            /Capturing/.test((m.data as { message: string }).message),
        ),
      ).toBe(true),
    );

    await service.stop(USER, 's1', send.broadcast);
    expect(closed.count).toBe(2);
    expect(activities.list(USER)).toEqual([]);
    expect(addComparison).not.toHaveBeenCalled();
    const ends = toAll.filter(
      (m) => m.type === 'vision_comparison_error' || m.type === 'vision_comparison_completed',
    );
    expect(ends).toEqual([
      { type: 'vision_comparison_error', session_id: 's1', data: { error: COMPARISON_STOPPED } },
    ]);
    // Another user's upload, or none: the screen's own error.
    await service.compare('user-2', data, send);
    expect(toSender.at(-1)).toMatchObject({
      data: { error: 'The uploaded design was not found; upload it again' },
    });
  });

  it('does not start a comparison whose Stop arrived while it was still being checked', async () => {
    const activities = new ActivityRegistry({ browsers: new BrowserBudget(2), log });
    let release = () => {};
    const checked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const opened = vi.fn(async () => hangingSession({ count: 0 }));
    const service = fakeService({
      activities,
      blobs,
      upload: async () => ({ id: UPLOAD, user_id: USER, sha256: sha }),
      openSession: opened,
      // The session check is slow: the Stop arrives before the comparison exists.
      checkSession: () => checked,
    });
    const messages: ServerMessageInput[] = [];
    const send = {
      reply: (m: ServerMessageInput) => messages.push(m),
      broadcast: (m: ServerMessageInput) => messages.push(m),
    };
    const comparing = service.compare(
      USER,
      { comparison_type: 'image', file_id: UPLOAD, website_url: 'https://site.test/', session_id: 's1' },
      send,
    );
    await service.stop(USER, 's1', send.broadcast);
    release();
    await comparing;
    expect(activities.list(USER)).toEqual([]);
    expect(opened).not.toHaveBeenCalled();
    expect(messages.map((m) => m.type)).toEqual(['vision_comparison_error']);
  });

  it('says its place in line while its browsers wait, then captures', async () => {
    const activities = new ActivityRegistry({ browsers: new BrowserBudget(2), log });
    const closed = { count: 0 };
    const service = fakeService({
      activities,
      blobs,
      upload: async () => ({ id: UPLOAD, user_id: USER, sha256: sha }),
      // Every browser of the server is busy: the pool tells the request its place as the line moves.
      openSession: async (options) => {
        options.onQueued?.(3);
        options.onQueued?.(1);
        return hangingSession(closed);
      },
    });
    const messages: ServerMessageInput[] = [];
    const send = {
      reply: (m: ServerMessageInput) => messages.push(m),
      broadcast: (m: ServerMessageInput) => messages.push(m),
    };
    await service.compare(
      USER,
      { comparison_type: 'image', file_id: UPLOAD, website_url: 'https://site.test/', session_id: 's1' },
      send,
    );
    const said = () =>
      messages
        .filter((m) => m.type === 'vision_comparison_progress')
        .map((m) => (m.data as { message: string }).message);
    await vi.waitFor(() => expect(said()).toContain('Waiting for a free browser: 1 ahead'));
    expect(said()).toContain('Waiting for a free browser: 3 ahead');
    expect(said().indexOf('Waiting for a free browser: 3 ahead')).toBeLessThan(
      said().indexOf('Waiting for a free browser: 1 ahead'),
    );
    await service.stop(USER, 's1', send.broadcast);
    expect(closed.count).toBe(1);
  });
});
