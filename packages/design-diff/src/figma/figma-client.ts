import { AbortedError, abortableDelay } from '@argus/engine';
import type { FigmaFileResponse, FigmaImagesResponse, FigmaNodesResponse } from './figma-types';

/**
 * - `permission`: the token's account cannot open the file (403, or 404 on the file, which is how Figma
 *   answers for a private file): the UI opens the 'Figma File Access Required' modal.
 * - `not_found`: the file opened but the node does not exist or could not be rendered.
 * - `rate_limited`: Figma answered 429 and the wait is too long (or a retry was refused again).
 * - `auth`: no token, or Figma refused the token itself.
 * - `network`: Figma could not be reached, timed out, or answered with a server error.
 * - `bad_response`: an answer that is not what the API documents (or a request Figma called invalid).
 */
export type FigmaErrorCode =
  | 'permission'
  | 'not_found'
  | 'rate_limited'
  | 'auth'
  | 'network'
  | 'bad_response';

export class FigmaError extends Error {
  readonly code: FigmaErrorCode;
  readonly status?: number;
  /** For `rate_limited`: how long Figma asked to wait, in seconds. */
  readonly retryAfterSeconds?: number;
  constructor(
    code: FigmaErrorCode,
    message: string,
    extra: { status?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'FigmaError';
    this.code = code;
    this.status = extra.status;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

export const DEFAULT_FIGMA_API_BASE = 'https://api.figma.com';
/** A 429 whose Retry-After is at most this is waited out and retried once; a longer one is an error. */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 30;
const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
const MAX_JSON_BYTES = 128 * 1024 * 1024;

export const FIGMA_TOKEN_NEEDED =
  'A Figma access token is needed to compare with a Figma file: add one in Settings (Figma) or set FIGMA_TOKEN on the server.';

export interface FigmaClientOptions {
  /** A personal access token (sent as `X-Figma-Token`). */
  token: string | undefined | null;
  /** Default: `FIGMA_API_BASE`, else `https://api.figma.com`. */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Stops every request in flight and every wait. */
  signal?: AbortSignal;
  /** Per request; default 60 s. */
  timeoutMs?: number;
  /** Told before a rate-limit wait, so the user can be told too. */
  onRateLimited?: (info: { retryAfterSeconds: number; path: string }) => void;
  /** Longest Retry-After that is waited out (default 30 s). */
  maxRateLimitWaitSeconds?: number;
  /**
   * The most of one API answer (JSON) that is read, counted after decompression; past it the read
   * stops with a `bad_response` naming the limit. @default 128 MiB
   */
  maxJsonBytes?: number;
  /** The same for one downloaded render. @default 64 MiB */
  maxImageBytes?: number;
}

export interface RenderOptions {
  format?: 'png' | 'jpg';
  /** 0.01..4 (Figma's range); default 1. */
  scale?: number;
}

/** "2 minutes", "45 seconds", "1 hour 5 minutes". */
export function describeWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
}

/** Retry-After as seconds (delta-seconds or an HTTP date); unknown when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/** "128 MB", "512 KB": a limit as people read it. */
function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Number((bytes / 1024 / 1024).toFixed(1))} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Reads a body up to a limit, so a hostile or broken server cannot fill memory. `fetch` has already
 * decompressed what it yields, so a small gzip answer that inflates to gigabytes is counted as it
 * inflates, and leaving the loop cancels the download.
 */
async function readLimited(response: Response, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new FigmaError(
      'bad_response',
      `Figma's answer is larger than ${megabytes(limit)} (counted after decompression), the most that is read; it was not read further`,
    );
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Figma's error bodies are `{ status, err }` (sometimes `{ error, message }`). */
async function errorText(response: Response): Promise<string> {
  try {
    const text = (await readLimited(response, 64 * 1024)).toString('utf8');
    try {
      const body = JSON.parse(text) as { err?: unknown; message?: unknown };
      if (typeof body.err === 'string') return body.err;
      if (typeof body.message === 'string') return body.message;
    } catch {
      // not JSON
    }
    return text.slice(0, 200);
  } catch {
    return '';
  }
}

/**
 * Figma's REST API over `fetch`: the file, its nodes, and renders of nodes. Every failure is a
 * `FigmaError` with a code the comparison turns into the right message (see `FigmaErrorCode`); a stop
 * through the signal rejects with `AbortedError`.
 */
export class FigmaClient {
  readonly apiBase: string;
  private readonly token: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly signal: AbortSignal | undefined;
  private readonly timeoutMs: number;
  private readonly maxWait: number;
  private readonly onRateLimited: FigmaClientOptions['onRateLimited'];
  private readonly maxJsonBytes: number;
  private readonly maxImageBytes: number;

  constructor(options: FigmaClientOptions) {
    const base = options.apiBase ?? process.env.FIGMA_API_BASE ?? DEFAULT_FIGMA_API_BASE;
    this.apiBase = base.replace(/\/+$/, '');
    this.token = options.token?.trim() || undefined;
    this.fetchImpl = options.fetch ?? fetch;
    this.signal = options.signal;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxWait = options.maxRateLimitWaitSeconds ?? MAX_RATE_LIMIT_WAIT_SECONDS;
    this.onRateLimited = options.onRateLimited;
    this.maxJsonBytes = options.maxJsonBytes ?? MAX_JSON_BYTES;
    this.maxImageBytes = options.maxImageBytes ?? MAX_IMAGE_BYTES;
  }

  /** `GET /v1/files/:key`; `depth: 2` reads pages and their top-level frames only. */
  async getFile(fileKey: string, options: { depth?: number } = {}): Promise<FigmaFileResponse> {
    const query = new URLSearchParams();
    if (options.depth !== undefined) query.set('depth', String(options.depth));
    const body = await this.json<FigmaFileResponse>(
      `/v1/files/${encodeURIComponent(fileKey)}`,
      query,
      'file',
    );
    if (!body || typeof body !== 'object' || !body.document || !Array.isArray(body.document.children)) {
      throw new FigmaError('bad_response', 'Figma answered the file request without a document');
    }
    return body;
  }

  /** `GET /v1/files/:key/nodes?ids=`: each id maps to its subtree, or `null` when the file has no such node. */
  async getNodes(
    fileKey: string,
    ids: string[],
    options: { depth?: number } = {},
  ): Promise<FigmaNodesResponse> {
    const query = new URLSearchParams({ ids: ids.join(',') });
    if (options.depth !== undefined) query.set('depth', String(options.depth));
    const body = await this.json<FigmaNodesResponse>(
      `/v1/files/${encodeURIComponent(fileKey)}/nodes`,
      query,
      'file',
    );
    if (!body || typeof body !== 'object' || !body.nodes || typeof body.nodes !== 'object') {
      throw new FigmaError('bad_response', 'Figma answered the nodes request without nodes');
    }
    return body;
  }

  /** One node's subtree; `not_found` when the file has no such node. */
  async getNode(fileKey: string, id: string): Promise<FigmaNodesResponse['nodes'][string] & object> {
    const body = await this.getNodes(fileKey, [id]);
    const entry = body.nodes[id];
    if (!entry?.document) {
      throw new FigmaError('not_found', `The Figma file has no node ${id} (was it deleted or moved?)`);
    }
    return entry;
  }

  /** `GET /v1/images/:key`: where Figma put each render (URLs live for a while, then expire). */
  async imageUrls(
    fileKey: string,
    ids: string[],
    options: RenderOptions = {},
  ): Promise<Record<string, string | null>> {
    const scale = Math.min(4, Math.max(0.01, options.scale ?? 1));
    const query = new URLSearchParams({
      ids: ids.join(','),
      format: options.format ?? 'png',
      scale: String(Number(scale.toFixed(4))),
    });
    const body = await this.json<FigmaImagesResponse>(
      `/v1/images/${encodeURIComponent(fileKey)}`,
      query,
      'file',
    );
    if (body?.err) throw new FigmaError('bad_response', `Figma could not render the design: ${body.err}`);
    if (!body || typeof body.images !== 'object' || body.images === null) {
      throw new FigmaError('bad_response', 'Figma answered the render request without images');
    }
    return body.images;
  }

  /** Renders nodes and downloads each image: node id to its bytes. */
  async renderImages(
    fileKey: string,
    ids: string[],
    options: RenderOptions = {},
  ): Promise<Map<string, Buffer>> {
    const urls = await this.imageUrls(fileKey, ids, options);
    const out = new Map<string, Buffer>();
    for (const id of ids) {
      const url = urls[id];
      if (!url) {
        throw new FigmaError('not_found', `Figma could not render node ${id} (it may be empty or invisible)`);
      }
      out.set(id, await this.download(url));
    }
    return out;
  }

  /** Renders one node and downloads it. */
  async renderImage(fileKey: string, id: string, options: RenderOptions = {}): Promise<Buffer> {
    const images = await this.renderImages(fileKey, [id], options);
    return images.get(id)!;
  }

  /**
   * Downloads a rendered image. Only https, or the API's own origin (a local fake), is fetched; the token
   * goes only to the API's origin, never to the storage host the render lives on.
   */
  private async download(rawUrl: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FigmaError('bad_response', 'Figma returned a render address that is not a URL');
    }
    const sameOrigin = url.origin === new URL(this.apiBase).origin;
    if (url.protocol !== 'https:' && !sameOrigin) {
      throw new FigmaError(
        'bad_response',
        `Figma returned a render address that is not https: ${url.origin}`,
      );
    }
    const response = await this.send(url, sameOrigin, 'render');
    return this.read(response, this.maxImageBytes);
  }

  private async json<T>(path: string, query: URLSearchParams, what: 'file'): Promise<T> {
    const qs = query.toString();
    const url = new URL(`${this.apiBase}${path}${qs ? `?${qs}` : ''}`);
    const response = await this.send(url, true, what);
    const bytes = await this.read(response, this.maxJsonBytes);
    try {
      return JSON.parse(bytes.toString('utf8')) as T;
    } catch {
      throw new FigmaError('bad_response', `Figma's answer to ${path} is not JSON`);
    }
  }

  /** One request with the rate-limit retry; returns an OK response or throws. */
  private async send(url: URL, withToken: boolean, what: 'file' | 'render'): Promise<Response> {
    if (withToken && !this.token) throw new FigmaError('auth', FIGMA_TOKEN_NEEDED);
    for (let attempt = 0; ; attempt++) {
      const response = await this.fetchOnce(url, withToken);
      if (response.ok) return response;
      const status = response.status;
      if (status === 429) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        await response.body?.cancel();
        const wait = retryAfter ?? 60;
        if (attempt === 0 && wait <= this.maxWait) {
          this.onRateLimited?.({ retryAfterSeconds: wait, path: url.pathname });
          await abortableDelay(wait * 1000, this.signal);
          continue;
        }
        throw new FigmaError(
          'rate_limited',
          retryAfter === undefined
            ? "Figma's API rate limit was reached; try again in a minute or so."
            : `Figma's API rate limit was reached; try again in ${describeWait(retryAfter)}.`,
          { status, retryAfterSeconds: retryAfter },
        );
      }
      const detail = await errorText(response);
      throw this.statusError(status, detail, what);
    }
  }

  private statusError(status: number, detail: string, what: 'file' | 'render'): FigmaError {
    const said = detail ? ` (Figma said: ${detail})` : '';
    if (what === 'render') {
      // The render's storage host: an expired or refused address is not about the file's sharing.
      return new FigmaError('network', `The rendered design could not be downloaded: HTTP ${status}${said}`, {
        status,
      });
    }
    if (status === 401 || (status === 403 && /token/i.test(detail))) {
      return new FigmaError(
        'auth',
        `Figma refused the access token${said}. Check the Figma token in Settings or FIGMA_TOKEN on the server.`,
        { status },
      );
    }
    if (status === 403 || status === 404) {
      return new FigmaError(
        'permission',
        `Figma file access required: the file is private or does not exist${said}. Make it viewable by anyone with the link, or invite the service account as a viewer.`,
        { status },
      );
    }
    if (status === 400) return new FigmaError('bad_response', `Figma refused the request${said}`, { status });
    return new FigmaError('network', `Figma's API answered HTTP ${status}${said}`, { status });
  }

  private async read(response: Response, limit: number): Promise<Buffer> {
    try {
      return await readLimited(response, limit);
    } catch (error) {
      if (this.signal?.aborted) throw new AbortedError();
      if (error instanceof FigmaError) throw error;
      throw new FigmaError(
        'network',
        `Figma's answer broke off: ${error instanceof Error ? error.message : error}`,
      );
    }
  }

  private async fetchOnce(url: URL, withToken: boolean): Promise<Response> {
    if (this.signal?.aborted) throw new AbortedError();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = this.signal ? AbortSignal.any([this.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: withToken ? 'application/json' : '*/*' };
    if (withToken && this.token) headers['X-Figma-Token'] = this.token;
    try {
      return await this.fetchImpl(url, { headers, signal, redirect: withToken ? 'error' : 'follow' });
    } catch (error) {
      if (this.signal?.aborted) throw new AbortedError();
      if (timeout.aborted) {
        throw new FigmaError('network', `Figma did not answer within ${Math.round(this.timeoutMs / 1000)} s`);
      }
      const cause =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
      throw new FigmaError(
        'network',
        `Figma could not be reached at ${url.origin}${cause ? `: ${cause}` : ''}`,
      );
    }
  }
}
