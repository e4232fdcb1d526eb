import type { Page } from 'playwright-core';
import { untraced } from './recording/untraced';

export interface PageProblem {
  kind: 'console' | 'pageerror' | 'request';
  message: string;
  /** The page's URL when the problem was seen. */
  url: string;
  /** The resource it is about: a request's URL, or where the console says a message came from. */
  resource?: string;
}

/** Chromium's console message for a subresource that failed (it names the resource as the location). */
const FAILED_RESOURCE = /^Failed to load resource\b/;

/**
 * What a browser may ask a site's root for by itself, whether or not the page links it: the favicon,
 * Apple touch icons and the web app manifest. Elsewhere on the site such a name is the page's own.
 */
const BROWSER_OWN_PATH =
  /^\/(favicon\.ico|apple-touch-icon(-precomposed)?(-\d+x\d+)?(-precomposed)?\.png|site\.webmanifest|manifest\.webmanifest)$/i;

/** A source map: only a developer's tools fetch it. */
const SOURCE_MAP_PATH = /\.map$/i;

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/** Icon and manifest links of the page, resolved (what it asks the browser to fetch for it). */
function linkedIcons(): string[] {
  return Array.from(document.querySelectorAll('link[rel][href]'))
    .filter((link) => /icon|manifest/i.test(link.getAttribute('rel') ?? ''))
    .map((link) => (link as HTMLLinkElement).href);
}

/**
 * Collects what a page complains about since the last navigation: console errors, uncaught errors,
 * failed requests.
 *
 * What a visitor never sees does not count: what the browser asks a site's root for by itself (the
 * favicon, touch icons, the manifest) when the page neither links it nor requests it — Chromium fetches
 * those outside the page, so they show only as the console's "Failed to load resource" naming them —
 * and source maps. Those findings are kept apart in {@link ignoredFindings}, for the test's log.
 * Anything the page asked for (an image, a script, a stylesheet, a fetch, an icon it links) counts.
 */
export class PageTracker {
  private problems: PageProblem[] = [];
  /** Every finding since the tracker started (navigation forgets none): the ignored ones come from here. */
  private readonly findings: PageProblem[] = [];
  /** URLs the page itself requested or linked as an icon or manifest. */
  private readonly referenced = new Set<string>();
  crashed = false;

  constructor(readonly page: Page) {
    page.on('request', (request) => {
      this.referenced.add(request.url());
    });
    // Read as soon as the document is parsed, before its icons are fetched and before 'load'.
    page.on('domcontentloaded', () => {
      // The engine's own read: kept out of a case's trace (recording/untraced.ts).
      untraced(page, () => page.evaluate(linkedIcons)).then(
        (urls) => {
          for (const url of urls) this.referenced.add(url);
        },
        () => {},
      );
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      // Only "Failed to load resource" is about a resource; any other message is the page's own.
      const resource = FAILED_RESOURCE.test(text) ? message.location().url || undefined : undefined;
      this.add('console', text, resource);
    });
    page.on('pageerror', (error) => this.add('pageerror', error.message));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? 'failed';
      // Aborted by navigating away is not the site's fault.
      if (reason !== 'net::ERR_ABORTED')
        this.add('request', `${request.method()} ${request.url()} failed: ${reason}`, request.url());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) {
        this.add(
          'request',
          `${response.request().method()} ${response.url()} answered ${response.status()}`,
          response.url(),
        );
      }
    });
    page.on('crash', () => {
      this.crashed = true;
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.problems = this.problems.filter((p) => p.url === frame.url());
    });
  }

  /** Whether a finding is about something a visitor never sees (see the class comment). */
  private unseen(problem: PageProblem): boolean {
    const { resource } = problem;
    if (!resource) return false;
    const path = pathOf(resource);
    if (path === null) return false;
    if (SOURCE_MAP_PATH.test(path)) return true;
    return BROWSER_OWN_PATH.test(path) && !this.referenced.has(resource);
  }

  private add(kind: PageProblem['kind'], message: string, resource?: string) {
    const problem: PageProblem = { kind, message, url: this.page.url(), ...(resource ? { resource } : {}) };
    this.problems.push(problem);
    this.findings.push(problem);
  }

  /** Console errors and uncaught errors that count. */
  consoleErrors(): PageProblem[] {
    return this.problems.filter((p) => p.kind !== 'request' && !this.unseen(p));
  }

  /** Failed requests that count. */
  failedRequests(): PageProblem[] {
    return this.problems.filter((p) => p.kind === 'request' && !this.unseen(p));
  }

  /**
   * What was left out of {@link consoleErrors} and {@link failedRequests} because a visitor never sees
   * it (a missing /favicon.ico, a source map…), in the order seen, since the tracker started: a test
   * reports these as warnings.
   */
  ignoredFindings(): PageProblem[] {
    return this.findings.filter((p) => this.unseen(p));
  }

  /** Forget everything that counts (a navigation step starts a fresh page's record). */
  reset(): void {
    this.problems = [];
  }
}
