import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { type CaseFileTarget, createSignedUrls, type SignedQuery } from './signed-urls';

const secret = new TextEncoder().encode('a-test-jwt-secret-of-some-length-0123456789');
const START = Date.UTC(2030, 0, 1, 12, 0, 0);

function signer(ttlSeconds = 600) {
  const clock = { now: START };
  const urls = createSignedUrls({ secret, ttlSeconds, now: () => clock.now });
  return { clock, urls };
}

/** The path's id and its query, as the route receives them. */
function parts(url: string): { id: string; query: Record<string, string> } {
  const parsed = new URL(url, 'http://argus.test');
  const id = decodeURIComponent(parsed.pathname.split('/')[3] ?? '');
  return { id, query: Object.fromEntries(parsed.searchParams) };
}

function refusal(run: () => unknown): { status: number; code: string; detail: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code, detail: error.detail };
  }
}

describe('signed screenshot links', () => {
  it('signs one screenshot for its owner until it expires', () => {
    const { urls } = signer();
    const url = urls.screenshot('shot-1', 'user-a');
    expect(url).toMatch(
      /^\/api\/screenshots\/shot-1\/image\?owner=user-a&expires=\d+&sig=[A-Za-z0-9_-]{43}$/,
    );
    const { id, query } = parts(url);
    expect(Number(query.expires)).toBe(START / 1000 + 600);
    expect(urls.verifyScreenshot(id, query)).toEqual({ ownerId: 'user-a', expires: START / 1000 + 600 });
    expect(url).not.toContain('token');
  });

  it('is HMAC-SHA256 over "screenshot:<id>:<expires>:<owner>" with a key derived from, not equal to, the secret', () => {
    const { urls } = signer();
    const { query } = parts(urls.screenshot('shot-1', 'user-a'));
    const message = `screenshot:shot-1:${query.expires}:user-a`;
    const withJwtKey = createHmac('sha256', secret).update(message).digest('base64url');
    expect(query.sig).not.toBe(withJwtKey);
    // Another secret signs differently.
    const other = createSignedUrls({
      secret: new TextEncoder().encode('another-secret'),
      ttlSeconds: 600,
      now: () => START,
    });
    expect(parts(other.screenshot('shot-1', 'user-a')).query.sig).not.toBe(query.sig);
  });

  it('opens no other screenshot, owner or expiry', () => {
    const { urls } = signer();
    const { id, query } = parts(urls.screenshot('shot-1', 'user-a'));
    const cases: [string, SignedQuery][] = [
      ['shot-2', query],
      [id, { ...query, owner: 'user-b' }],
      [id, { ...query, expires: String(Number(query.expires) + 3600) }],
      [id, { ...query, expires: `0${query.expires}` }],
      [id, { ...query, sig: `${query.sig.slice(0, -1)}${query.sig.endsWith('A') ? 'B' : 'A'}` }],
      [id, { ...query, sig: `${query.sig}=` }],
      [id, { ...query, sig: [query.sig, query.sig] }],
      [id, { owner: query.owner, expires: query.expires }],
    ];
    for (const [otherId, otherQuery] of cases) {
      expect(
        refusal(() => urls.verifyScreenshot(otherId, otherQuery)),
        JSON.stringify([otherId, otherQuery]),
      ).toMatchObject({ status: 403, code: 'LINK_INVALID' });
    }
  });

  it('refuses a link once its lifetime is over, and a link of a server with another secret', () => {
    const { clock, urls } = signer(60);
    const { id, query } = parts(urls.screenshot('shot-1', 'user-a'));
    clock.now = START + 59_999;
    expect(urls.verifyScreenshot(id, query).ownerId).toBe('user-a');
    clock.now = START + 60_000;
    expect(refusal(() => urls.verifyScreenshot(id, query))).toEqual({
      status: 403,
      code: 'LINK_INVALID',
      detail: 'This link has expired',
    });
    const stranger = createSignedUrls({
      secret: new TextEncoder().encode('x'),
      ttlSeconds: 60,
      now: () => START,
    });
    expect(refusal(() => stranger.verifyScreenshot(id, query))).toMatchObject({ status: 403 });
  });

  it('answers 401 when no signature is given at all (a login token in the query counts for nothing)', () => {
    const { urls } = signer();
    expect(refusal(() => urls.verifyScreenshot('shot-1', {}))).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(
      refusal(() => urls.verifyScreenshot('shot-1', { access_token: 'eyJ.x.y' } as SignedQuery)),
    ).toMatchObject({ status: 401 });
  });

  it('keeps a lifetime of at least a second', () => {
    const { urls } = signer(0);
    expect(urls.ttlSeconds).toBe(1);
  });
});

describe('signed design links', () => {
  it('open one upload, thumbnail or comparison image for its owner, and no other kind of link', () => {
    const { urls, clock } = signer();
    const upload = urls.design('upload', 'up-1', 'user-a');
    expect(upload).toMatch(/^\/api\/uploads\/up-1\/image\?owner=user-a&expires=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const { id, query } = parts(upload);
    expect(urls.verifyDesign('upload', id, query)).toEqual({
      ownerId: 'user-a',
      expires: START / 1000 + 600,
    });
    // Another kind, another id, another owner: refused.
    expect(refusal(() => urls.verifyDesign('upload-thumbnail', id, query))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyDesign('comparison-image', id, query))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyDesign('upload', 'up-2', query))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyDesign('upload', id, { ...query, owner: 'user-b' }))?.code).toBe(
      'LINK_INVALID',
    );
    // A screenshot link for the same id opens no upload, and an upload link no screenshot.
    const shot = parts(urls.screenshot('up-1', 'user-a'));
    expect(refusal(() => urls.verifyDesign('upload', id, shot.query))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyScreenshot(id, query))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyDesign('upload', id, {}))?.status).toBe(401);
    expect(parts(urls.design('upload-thumbnail', 'up-1', 'user-a')).id).toBe('up-1');
    expect(urls.design('comparison-image', 'img-1', 'user-a')).toMatch(
      /^\/api\/comparisons\/images\/img-1\?/,
    );
    clock.now += 601_000;
    expect(refusal(() => urls.verifyDesign('upload', id, query))?.detail).toBe('This link has expired');
  });
});

describe('signed case file links', () => {
  const target = { runId: 'run-1', caseId: 'case-1', attempt: 2 };
  /** The link's query as the route reads it (the attempt, when given, is part of what is signed). */
  const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://argus.test').searchParams);

  it('open one case file (kind, run, case, attempt) for its owner until it expires, and nothing else', () => {
    const { urls, clock } = signer();
    const url = urls.caseFile('trace', target, 'user-a');
    expect(url).toMatch(
      /^\/api\/runs\/run-1\/cases\/case-1\/trace\.zip\?attempt=2&owner=user-a&expires=\d+&sig=[A-Za-z0-9_-]{43}$/,
    );
    const query = queryOf(url);
    expect(urls.verifyCaseFile('trace', target, query)).toEqual({
      ownerId: 'user-a',
      expires: START / 1000 + 600,
    });
    const refused = (kind: 'trace' | 'video', other: Partial<CaseFileTarget>) =>
      refusal(() => urls.verifyCaseFile(kind, { ...target, ...other }, query))?.code;
    expect(refused('video', target)).toBe('LINK_INVALID');
    expect(refused('trace', { ...target, attempt: 1 })).toBe('LINK_INVALID');
    expect(refused('trace', { ...target, attempt: null })).toBe('LINK_INVALID');
    expect(refused('trace', { ...target, caseId: 'case-2' })).toBe('LINK_INVALID');
    expect(refused('trace', { ...target, runId: 'run-2' })).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyCaseFile('trace', target, { ...query, owner: 'user-b' }))?.code).toBe(
      'LINK_INVALID',
    );
    // A screenshot link signed for the case's id opens no case file.
    const shot = parts(urls.screenshot('case-1', 'user-a')).query;
    expect(refusal(() => urls.verifyCaseFile('trace', target, shot))?.code).toBe('LINK_INVALID');
    expect(refusal(() => urls.verifyCaseFile('trace', target, {}))?.status).toBe(401);
    clock.now += 601_000;
    expect(refusal(() => urls.verifyCaseFile('trace', target, query))?.detail).toBe('This link has expired');
  });

  it('names no attempt when it opens the last one kept', () => {
    const { urls } = signer();
    const last = { ...target, attempt: null };
    const url = urls.caseFile('video', last, 'user-a');
    expect(url).toMatch(/^\/api\/runs\/run-1\/cases\/case-1\/video\.webm\?owner=user-a&expires=/);
    expect(urls.verifyCaseFile('video', last, queryOf(url)).ownerId).toBe('user-a');
  });
});
