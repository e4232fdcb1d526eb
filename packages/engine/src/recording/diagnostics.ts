import {
  type CaseDiagnostics,
  type ConsoleEntry,
  type ConsoleLevel,
  MAX_CONSOLE_ENTRIES,
  MAX_NETWORK_ENTRIES,
  type NetworkEntry,
} from '@argus/protocol';
import type { BrowserContext, ConsoleMessage, Request, Response, WebError } from 'playwright-core';
import { cleanHeaders } from './secrets';
import { untraced } from './untraced';

/** A URL or text kept in an entry is cut here (a data: URL may be megabytes). */
const MAX_TEXT = 4_000;
/**
 * The policy proxy answers 502 with this text when it cannot reach a site (policy-proxy.ts): the page
 * then never answered, and the entry says so in `failure`.
 */
const PROXY_UNREACHABLE = 'Argus proxy could not reach';
/** How long the end of a case waits for response sizes still being asked of the browser. */
const SIZES_WAIT_MS = 1_000;

const LEVELS: Record<string, ConsoleLevel> = {
  debug: 'debug',
  info: 'info',
  error: 'error',
  assert: 'error',
  warning: 'warning',
};

interface PendingRequest {
  entry: NetworkEntry;
  startedAt: number;
}

/**
 * A case's console messages, page errors and requests, each with when it happened (ms since the case
 * got its browser) and the step running then, from every page of the context (popups too).
 *
 * The page tracker (page-tracker.ts) keeps only a page's errors and failed requests, since its last
 * navigation, for the page-health steps; the exchange watch (session/exchanges.ts) only the page's own
 * documents and fetches, for expired sessions. Neither keeps levels, timing or sizes, so this listens
 * once at the context level rather than changing what those checks count. Entries are kept raw and
 * cleaned (secrets hidden, credential headers redacted) once, when the case ends.
 */
export class DiagnosticsCollector {
  private console: ConsoleEntry[] = [];
  private network: NetworkEntry[] = [];
  private truncated = false;
  private readonly pending = new Map<Request, PendingRequest>();
  private readonly sizes = new Set<Promise<void>>();
  private origin = Date.now();
  private step: number | null = null;

  constructor(context: BrowserContext) {
    context.on('console', (message) => this.onConsole(message));
    context.on('weberror', (error) => this.onPageError(error));
    context.on('request', (request) => this.onRequest(request));
    context.on('response', (response) => this.onResponse(response));
    context.on('requestfinished', (request) => this.onFinished(request, null));
    context.on('requestfailed', (request) =>
      this.onFinished(request, request.failure()?.errorText ?? 'failed'),
    );
  }

  /** The case got its browser: `at_ms` counts from now. */
  begin(at: number): void {
    this.origin = at;
  }

  /** The step now running (0-based, as in `steps`). */
  stepStarted(index: number): void {
    this.step = index;
  }

  private now(): number {
    return Math.max(0, Date.now() - this.origin);
  }

  private onConsole(message: ConsoleMessage): void {
    const { url, lineNumber, columnNumber } = message.location();
    this.pushConsole({
      at_ms: this.now(),
      step_index: this.step,
      level: LEVELS[message.type()] ?? 'log',
      text: message.text().slice(0, MAX_TEXT),
      location: url ? `${url.slice(0, MAX_TEXT)}:${lineNumber + 1}:${columnNumber + 1}` : null,
    });
  }

  private onPageError(error: WebError): void {
    const thrown = error.error();
    // The first frame of the stack that names a script: `at fn (http://…/app.js:12:5)`.
    const where = thrown.stack?.match(/\((https?:\/\/[^\s)]+:\d+:\d+)\)|at (https?:\/\/\S+:\d+:\d+)/);
    this.pushConsole({
      at_ms: this.now(),
      step_index: this.step,
      level: 'pageerror',
      text: `${thrown.name && thrown.name !== 'Error' ? `${thrown.name}: ` : ''}${thrown.message}`.slice(
        0,
        MAX_TEXT,
      ),
      location: where ? (where[1] ?? where[2]) : null,
    });
  }

  private pushConsole(entry: ConsoleEntry): void {
    this.console.push(entry);
    if (this.console.length > 2 * MAX_CONSOLE_ENTRIES)
      this.console = this.trim(this.console, MAX_CONSOLE_ENTRIES);
  }

  private onRequest(request: Request): void {
    const entry: NetworkEntry = {
      at_ms: this.now(),
      step_index: this.step,
      method: request.method(),
      url: request.url().slice(0, MAX_TEXT),
      status: null,
      resource_type: request.resourceType(),
      duration_ms: null,
      request_bytes: request.postDataBuffer()?.length ?? 0,
      response_bytes: null,
      failure: null,
      request_headers: request.headers(),
      response_headers: {},
    };
    this.pending.set(request, { entry, startedAt: Date.now() });
    this.network.push(entry);
    if (this.network.length > 2 * MAX_NETWORK_ENTRIES)
      this.network = this.trim(this.network, MAX_NETWORK_ENTRIES);
  }

  private onResponse(response: Response): void {
    const pending = this.pending.get(response.request());
    if (!pending) return;
    const { entry } = pending;
    entry.status = response.status();
    entry.response_headers = response.headers();
    if (entry.status === 502 && entry.response_headers['content-type']?.startsWith('text/plain')) {
      this.track(
        // The recorder's own read: no action of the case's trace.
        untraced(response, () => response.text()).then((body) => {
          if (body.startsWith(PROXY_UNREACHABLE)) entry.failure = body.slice(0, 500);
        }),
      );
    }
  }

  /** A question to the browser still out, waited for (briefly) by `settle`. */
  private track(asked: Promise<void>): void {
    const quiet = asked.catch(() => {});
    this.sizes.add(quiet);
    void quiet.finally(() => this.sizes.delete(quiet));
  }

  private onFinished(request: Request, failure: string | null): void {
    const pending = this.pending.get(request);
    if (!pending) return;
    this.pending.delete(request);
    const { entry } = pending;
    entry.failure ??= failure;
    const timing = request.timing();
    entry.duration_ms =
      timing.responseEnd >= 0 ? Math.round(timing.responseEnd) : Math.max(0, Date.now() - pending.startedAt);
    if (failure) return;
    // The length the site announced; else the browser is asked (one round trip, done by the case's end).
    const length = Number(entry.response_headers['content-length']);
    if (Number.isFinite(length) && length >= 0 && entry.response_headers['content-length'] !== undefined) {
      entry.response_bytes = length;
      return;
    }
    this.track(
      request.sizes().then((sizes) => {
        entry.response_bytes = sizes.responseBodySize;
      }),
    );
  }

  /** Keeps the newest `max` entries: a page polling forever must not fill the disk. */
  private trim<T>(entries: T[], max: number): T[] {
    this.truncated = true;
    return entries.slice(entries.length - max);
  }

  /** Waits (briefly) for sizes still being asked for; call before the context closes. */
  async settle(): Promise<void> {
    if (this.sizes.size === 0) return;
    await Promise.race([
      Promise.allSettled([...this.sizes]),
      new Promise((resolve) => setTimeout(resolve, SIZES_WAIT_MS).unref()),
    ]);
  }

  /** What was seen, capped (newest kept), secrets hidden and credential headers redacted. */
  result(hide: (text: string) => string): CaseDiagnostics {
    if (this.console.length > MAX_CONSOLE_ENTRIES)
      this.console = this.trim(this.console, MAX_CONSOLE_ENTRIES);
    if (this.network.length > MAX_NETWORK_ENTRIES)
      this.network = this.trim(this.network, MAX_NETWORK_ENTRIES);
    return {
      console: this.console.map((entry) => ({
        ...entry,
        text: hide(entry.text),
        location: entry.location === null ? null : hide(entry.location),
      })),
      network: this.network.map((entry) => ({
        ...entry,
        url: hide(entry.url),
        failure: entry.failure === null ? null : hide(entry.failure),
        request_headers: cleanHeaders(entry.request_headers, hide),
        response_headers: cleanHeaders(entry.response_headers, hide),
      })),
      truncated: this.truncated,
    };
  }
}
