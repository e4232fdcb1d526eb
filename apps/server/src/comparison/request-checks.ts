import {
  FIGMA_TOKEN_NEEDED,
  FigmaUrlError,
  ImageLimitError,
  parseFigmaUrl,
  pixelBudget,
  type Viewports,
} from '@argus/design-diff';
import { type ClientMessageOf, DEFAULT_VIEWPORTS } from '@argus/protocol';
import { AppError } from '../errors';
import type { ComparisonDeps } from './comparison-deps';

export const UPLOAD_NOT_FOUND = 'The uploaded design was not found; upload it again';
export const NOT_A_FIGMA_URL = 'Please enter a valid Figma file URL';
export const ALREADY_COMPARING =
  'A comparison is already running. Wait for it to finish or stop it before starting another.';
/** Viewports one comparison may ask for (each is a browser capture). */
export const MAX_VIEWPORTS = 6;

/** What the socket asks a comparison with. */
export type CompareData = ClientMessageOf<'figma_website_comparison'>['data'];

/** What to compare, once every check passed. */
export type Source =
  | { type: 'image'; fileId: string; sha256: string }
  | { type: 'figma'; figmaUrl: string; fileKey: string; nodeId?: string; token: string };

/** A request that passed every check: what the work runs on. */
export interface ComparisonRequest {
  sessionId: string | null;
  websiteUrl: string;
  viewports: Viewports;
  options: NonNullable<CompareData['options']> | undefined;
  source: Source;
}

/** A refusal shown on the design screen as its error (not a socket `error`). */
export class Refusal extends Error {}

export function figmaUrlOf(request: ComparisonRequest): string | null {
  return request.source.type === 'figma' ? request.source.figmaUrl : null;
}

/** An ImageLimitError as COMPARISON_TOO_LARGE, naming the setting when it is the configurable one. */
export function limitError(error: unknown, comparisonMaxPixels: number): unknown {
  if (!(error instanceof ImageLimitError)) return error;
  const setting = error.limit === comparisonMaxPixels ? ' (COMPARISON_MAX_PIXELS)' : '';
  return new AppError('COMPARISON_TOO_LARGE', `${error.message}${setting}.`);
}

/**
 * Every check of a request that needs no browser, so a bad request is refused before any work starts:
 * the session is the user's, the design (their upload, or a Figma link with a token), the website
 * (http(s), allowed by the browser's target policy), the viewports and the pixels they take.
 */
export class RequestChecks {
  constructor(
    private readonly deps: Pick<
      ComparisonDeps,
      'config' | 'repos' | 'policy' | 'figmaToken' | 'checkSession'
    >,
  ) {}

  async check(userId: string, data: CompareData): Promise<ComparisonRequest> {
    const sessionId = data.session_id || null;
    await this.deps.checkSession(userId, sessionId);
    let source: Source;
    if (data.comparison_type === 'image') {
      const row = await this.deps.repos.designComparisons.upload(userId, data.file_id);
      if (!row) throw new Refusal(UPLOAD_NOT_FOUND);
      source = { type: 'image', fileId: row.id, sha256: row.sha256 };
    } else {
      let ref: ReturnType<typeof parseFigmaUrl>;
      try {
        ref = parseFigmaUrl(data.figma_url);
      } catch (error) {
        if (error instanceof FigmaUrlError) throw new Refusal(NOT_A_FIGMA_URL);
        throw error;
      }
      const token = await this.deps.figmaToken(userId);
      if (!token) throw new Refusal(FIGMA_TOKEN_NEEDED);
      source = { type: 'figma', figmaUrl: data.figma_url, fileKey: ref.fileKey, nodeId: ref.nodeId, token };
    }
    await this.checkWebsite(data.website_url);
    const viewports: Viewports =
      data.viewports && Object.keys(data.viewports).length
        ? data.viewports
        : data.options?.include_responsive === false
          ? { desktop: DEFAULT_VIEWPORTS.desktop }
          : { ...DEFAULT_VIEWPORTS };
    if (Object.keys(viewports).length > MAX_VIEWPORTS)
      throw new Refusal(`Compare at most ${MAX_VIEWPORTS} viewports at once`);
    for (const name of Object.keys(viewports))
      if (name.length > 50) throw new Refusal('A viewport name may be at most 50 characters');
    // The pixels the viewports take, before any browser or decode (the comparison checks them again).
    try {
      pixelBudget(viewports, { maxComparisonPixels: this.deps.config.comparisonMaxPixels });
    } catch (error) {
      throw limitError(error, this.deps.config.comparisonMaxPixels);
    }
    return { sessionId, websiteUrl: data.website_url, viewports, options: data.options, source };
  }

  /** An http(s) address the server's browser may open (the target policy of docs/ARCHITECTURE.md). */
  async checkWebsite(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Refusal('Please enter a valid website URL (http:// or https://)');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Refusal('Please enter a valid website URL (http:// or https://)');
    const decision = await this.deps.policy.check(parsed);
    if (!decision.allowed) throw new Refusal(`The website cannot be compared: ${decision.reason}`);
  }
}
