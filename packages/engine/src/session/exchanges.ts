import type { Page, Request, Response } from 'playwright-core';
import { abortableDelay } from '../errors';

/** One answer the page got from its own site while watched: a page, a form post, a fetch or an XHR. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  kind: 'document' | 'fetch' | 'xhr';
  /** The address first asked for, when the answer came after one or more redirects. */
  redirectedFrom: string | null;
}

/** What the page did between two `take()`s. */
export interface PageActivity {
  /** Answers from the page's own site (same origin as the page when asked), in the order they came. */
  exchanges: Exchange[];
  /** A new document loaded in the main frame (a link, a form post, a script setting `location`). */
  newDocument: boolean;
  /**
   * A request to the page's own site that may change data there (any method but GET, HEAD or OPTIONS)
   * was sent, answered or not.
   */
  changedServer: boolean;
}

const WATCHED = new Set(['document', 'fetch', 'xhr']);
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    const { origin, protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : null;
  } catch {
    return null;
  }
}

/**
 * Records what a page exchanges with its own site, step by step: each `take()` answers what happened
 * since the previous one. A signed-in run reads it to tell that a step met an expired session (a fetch
 * answered 401, a form post sent to the sign-in page) and which steps may be done again without asking
 * the server twice. Images, scripts and styles are not watched: their answers say nothing of a session.
 */
export class ExchangeWatch {
  private activity: PageActivity = { exchanges: [], newDocument: false, changedServer: false };
  /** Watched requests sent since the last `take()` and not finished yet. */
  private pending = new Set<Request>();
  private readonly ours = new WeakSet<Request>();

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('response', this.onResponse);
    page.on('requestfinished', this.onFinished);
    page.on('requestfailed', this.onFinished);
    page.on('domcontentloaded', this.onDocument);
  }

  private readonly onRequest = (request: Request): void => {
    if (!WATCHED.has(request.resourceType())) return;
    const from = request.redirectedFrom();
    if (!(from ? this.ours.has(from) : this.sameSite(request))) return;
    this.ours.add(request);
    // A redirect goes on as a new request: it is the same exchange, still to be answered.
    if (!from || this.pending.delete(from)) this.pending.add(request);
    if (!from && !READ_ONLY.has(request.method())) this.activity.changedServer = true;
  };

  private readonly onResponse = (response: Response): void => {
    const request = response.request();
    if (!this.ours.has(request)) return;
    // A redirect's own answer is only a step on the way: the answer at the end of it counts.
    if (response.status() >= 300 && response.status() < 400 && response.headers().location) return;
    // Its status is what counts: a body the page never reads may keep the request open for long.
    this.pending.delete(request);
    let first = request;
    for (let from = first.redirectedFrom(); from; from = from.redirectedFrom()) first = from;
    this.activity.exchanges.push({
      method: first.method(),
      url: response.url(),
      status: response.status(),
      kind: request.resourceType() as Exchange['kind'],
      redirectedFrom: first === request ? null : first.url(),
    });
  };

  private readonly onFinished = (request: Request): void => {
    this.pending.delete(request);
  };

  private readonly onDocument = (): void => {
    this.activity.newDocument = true;
  };

  /** Same origin as the page now; a page's own navigation from a blank page counts too. */
  private sameSite(request: Request): boolean {
    const page = originOf(this.page.url());
    if (page) return originOf(request.url()) === page;
    return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
  }

  /**
   * Waits until the watched requests sent since the last `take()` are answered (a fetch a click sent
   * may be answered after the click returns), at most `ms`.
   */
  async settle(ms: number, signal?: AbortSignal): Promise<void> {
    const until = Date.now() + ms;
    while (this.pending.size > 0 && Date.now() < until && !this.page.isClosed()) {
      await abortableDelay(Math.min(25, until - Date.now()), signal);
    }
  }

  /** What happened since the last call (or since the watch began); starts a new record. */
  take(): PageActivity {
    const taken = this.activity;
    this.activity = { exchanges: [], newDocument: false, changedServer: false };
    // A request still unanswered belongs to the step that sent it: the next step does not wait for it.
    this.pending = new Set();
    return taken;
  }

  stop(): void {
    this.page.off('request', this.onRequest);
    this.page.off('response', this.onResponse);
    this.page.off('requestfinished', this.onFinished);
    this.page.off('requestfailed', this.onFinished);
    this.page.off('domcontentloaded', this.onDocument);
  }
}
