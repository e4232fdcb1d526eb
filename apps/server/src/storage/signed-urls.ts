import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';

/** What a signed screenshot link carries besides its path. */
export interface SignedQuery {
  /** The owner's user id: the signature binds it, and the row is then read owner-scoped. */
  owner?: unknown;
  /** Unix seconds after which the link opens nothing. */
  expires?: unknown;
  /** HMAC-SHA256, base64url, over `screenshot:<id>:<expires>:<owner>`. */
  sig?: unknown;
}

/**
 * What else a link may open, each signed with its own key and label, so that no kind of link can be
 * turned into another: an upload's image, its thumbnail, and an image a comparison shows.
 */
export type DesignLinkKind = 'upload' | 'upload-thumbnail' | 'comparison-image';

const DESIGN_PATHS: Record<DesignLinkKind, (id: string) => string> = {
  upload: (id) => `/api/uploads/${id}/image`,
  'upload-thumbnail': (id) => `/api/uploads/${id}/thumbnail`,
  'comparison-image': (id) => `/api/comparisons/images/${id}`,
};

/**
 * A visual check's pictures (docs/VISUAL-CHECKS.md): a run's capture, the baseline it was compared
 * with and their difference (by the check's id), and a baseline's own (by the baseline's id).
 */
export type VisualLinkKind = 'check-current' | 'check-baseline' | 'check-diff' | 'baseline';

const VISUAL_PATHS: Record<VisualLinkKind, (id: string) => string> = {
  'check-current': (id) => `/api/visual-checks/${id}/current.png`,
  'check-baseline': (id) => `/api/visual-checks/${id}/baseline.png`,
  'check-diff': (id) => `/api/visual-checks/${id}/diff.png`,
  baseline: (id) => `/api/visual-baselines/${id}/image.png`,
};

/** A case's files opened by signed link (docs/DIAGNOSTICS.md): its Playwright trace and its video. */
export type CaseFileKind = 'trace' | 'video';

const CASE_FILE_NAMES: Record<CaseFileKind, string> = { trace: 'trace.zip', video: 'video.webm' };

/**
 * Which file a case link opens: the run, the case (its result row's id), and the attempt, or null for
 * the last attempt that kept one.
 */
export interface CaseFileTarget {
  runId: string;
  caseId: string;
  attempt: number | null;
}

export interface SignedUrls {
  readonly ttlSeconds: number;
  /** A path opening this one upload (or thumbnail, or comparison image) for `ttlSeconds`. */
  design(kind: DesignLinkKind, id: string, ownerId: string): string;
  /** Like `verifyScreenshot`, for a link `design(kind, id, …)` made. */
  verifyDesign(kind: DesignLinkKind, id: string, query: SignedQuery): { ownerId: string; expires: number };
  /** A path opening one visual check's (or baseline's) picture for `ttlSeconds`. */
  visual(kind: VisualLinkKind, id: string, ownerId: string): string;
  /** Like `verifyScreenshot`, for a link `visual(kind, id, …)` made. */
  verifyVisual(kind: VisualLinkKind, id: string, query: SignedQuery): { ownerId: string; expires: number };
  /** A path opening this one screenshot for `ttlSeconds`: `/api/screenshots/<id>/image?owner=…&expires=…&sig=…`. */
  screenshot(id: string, ownerId: string): string;
  /** The owner the link was signed for, or an AppError (401 without a signature, 403 wrong or expired). */
  verifyScreenshot(id: string, query: SignedQuery): { ownerId: string; expires: number };
  /**
   * A path opening one case's trace or video for `ttlSeconds`:
   * `/api/runs/<run>/cases/<case>/trace.zip?attempt=<n>&owner=…&expires=…&sig=…` (no `attempt` when null).
   */
  caseFile(kind: CaseFileKind, target: CaseFileTarget, ownerId: string): string;
  /** Like `verifyScreenshot`, for a link `caseFile(kind, target, …)` made (`attempt` as the link says it). */
  verifyCaseFile(
    kind: CaseFileKind,
    target: CaseFileTarget,
    query: SignedQuery,
  ): { ownerId: string; expires: number };
}

/** A base64url HMAC-SHA256 is 32 bytes: 43 characters without padding. */
const SIG = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = /^\d{1,12}$/;
const OWNER = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Short-lived links to stored screenshots, so an <img> needs no login token in its URL. Each link is
 * signed for one screenshot, its owner and its expiry with a key derived (HKDF, its own label) from the
 * JWT secret, so the token key itself never signs a link and a link cannot be turned into a token.
 */
export function createSignedUrls(deps: {
  secret: Uint8Array;
  ttlSeconds: number;
  /** Milliseconds since the epoch; tests inject a clock. */
  now?: () => number;
}): SignedUrls {
  const key = Buffer.from(hkdfSync('sha256', deps.secret, 'argus', 'argus signed-url key v1', 32));
  const ttlSeconds = Math.max(1, Math.floor(deps.ttlSeconds));
  const now = deps.now ?? Date.now;
  const sign = (id: string, expires: string, ownerId: string) =>
    createHmac('sha256', key).update(`screenshot:${id}:${expires}:${ownerId}`).digest('base64url');
  // Design links have a key of their own (another HKDF label) besides their kind in the signed text.
  const designKey = Buffer.from(hkdfSync('sha256', deps.secret, 'argus', 'argus design-link key v1', 32));
  const signDesign = (kind: DesignLinkKind, id: string, expires: string, ownerId: string) =>
    createHmac('sha256', designKey).update(`${kind}:${id}:${expires}:${ownerId}`).digest('base64url');
  // Visual checks' pictures: a key of their own, the kind in the signed text.
  const visualKey = Buffer.from(hkdfSync('sha256', deps.secret, 'argus', 'argus visual-link key v1', 32));
  const signVisual = (kind: VisualLinkKind, id: string, expires: string, ownerId: string) =>
    createHmac('sha256', visualKey).update(`${kind}:${id}:${expires}:${ownerId}`).digest('base64url');
  // Case files too (a trace holds a whole session's pages): bound to run, case, kind and attempt.
  const caseKey = Buffer.from(hkdfSync('sha256', deps.secret, 'argus', 'argus case-file key v1', 32));
  const signCase = (kind: CaseFileKind, target: CaseFileTarget, expires: string, ownerId: string) =>
    createHmac('sha256', caseKey)
      .update(
        `case-${kind}:${target.runId}:${target.caseId}:${target.attempt ?? 'last'}:${expires}:${ownerId}`,
      )
      .digest('base64url');
  const verify = (query: SignedQuery, expectedSig: (owner: string, expires: string) => string) => {
    const { owner, expires, sig } = query;
    if (owner === undefined && expires === undefined && sig === undefined) {
      throw new AppError('UNAUTHENTICATED', 'A signed link is required');
    }
    if (
      typeof owner !== 'string' ||
      typeof expires !== 'string' ||
      typeof sig !== 'string' ||
      !OWNER.test(owner) ||
      !EXPIRES.test(expires) ||
      !SIG.test(sig)
    ) {
      throw new AppError('LINK_INVALID');
    }
    const expected = Buffer.from(expectedSig(owner, expires));
    if (!timingSafeEqual(expected, Buffer.from(sig))) throw new AppError('LINK_INVALID');
    const at = Number(expires);
    if (now() >= at * 1000) throw new AppError('LINK_INVALID', 'This link has expired');
    return { ownerId: owner, expires: at };
  };

  return {
    ttlSeconds,
    screenshot(id, ownerId) {
      const expires = String(Math.floor(now() / 1000) + ttlSeconds);
      const query = new URLSearchParams({ owner: ownerId, expires, sig: sign(id, expires, ownerId) });
      return `/api/screenshots/${encodeURIComponent(id)}/image?${query}`;
    },
    verifyScreenshot(id, query) {
      return verify(query, (owner, expires) => sign(id, expires, owner));
    },
    design(kind, id, ownerId) {
      const expires = String(Math.floor(now() / 1000) + ttlSeconds);
      const query = new URLSearchParams({
        owner: ownerId,
        expires,
        sig: signDesign(kind, id, expires, ownerId),
      });
      return `${DESIGN_PATHS[kind](encodeURIComponent(id))}?${query}`;
    },
    verifyDesign(kind, id, query) {
      return verify(query, (owner, expires) => signDesign(kind, id, expires, owner));
    },
    visual(kind, id, ownerId) {
      const expires = String(Math.floor(now() / 1000) + ttlSeconds);
      const query = new URLSearchParams({
        owner: ownerId,
        expires,
        sig: signVisual(kind, id, expires, ownerId),
      });
      return `${VISUAL_PATHS[kind](encodeURIComponent(id))}?${query}`;
    },
    verifyVisual(kind, id, query) {
      return verify(query, (owner, expires) => signVisual(kind, id, expires, owner));
    },
    caseFile(kind, target, ownerId) {
      const expires = String(Math.floor(now() / 1000) + ttlSeconds);
      const query = new URLSearchParams({
        ...(target.attempt === null ? {} : { attempt: String(target.attempt) }),
        owner: ownerId,
        expires,
        sig: signCase(kind, target, expires, ownerId),
      });
      const { runId, caseId } = target;
      return `/api/runs/${encodeURIComponent(runId)}/cases/${encodeURIComponent(caseId)}/${CASE_FILE_NAMES[kind]}?${query}`;
    },
    verifyCaseFile(kind, target, query) {
      return verify(query, (owner, expires) => signCase(kind, target, expires, owner));
    },
  };
}
