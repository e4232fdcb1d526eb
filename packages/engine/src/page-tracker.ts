import type { Page } from 'playwright-core';

export interface PageProblem {
  kind: 'console' | 'pageerror' | 'request';
  message: string;
  url: string;
}

/** Collects what a page complains about since the last navigation: console errors, uncaught errors, failed requests. */
export class PageTracker {
  private problems: PageProblem[] = [];
  crashed = false;

  constructor(readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.add('console', message.text());
    });
    page.on('pageerror', (error) => this.add('pageerror', error.message));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? 'failed';
      // Aborted by navigating away is not the site's fault.
      if (reason !== 'net::ERR_ABORTED')
        this.add('request', `${request.method()} ${request.url()} failed: ${reason}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) {
        this.add('request', `${response.request().method()} ${response.url()} answered ${response.status()}`);
      }
    });
    page.on('crash', () => {
      this.crashed = true;
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.problems = this.problems.filter((p) => p.url === frame.url());
    });
  }

  private add(kind: PageProblem['kind'], message: string) {
    this.problems.push({ kind, message, url: this.page.url() });
  }

  consoleErrors(): PageProblem[] {
    return this.problems.filter((p) => p.kind !== 'request');
  }

  failedRequests(): PageProblem[] {
    return this.problems.filter((p) => p.kind === 'request');
  }

  /** Forget everything (a navigation step starts a fresh page's record). */
  reset(): void {
    this.problems = [];
  }
}
