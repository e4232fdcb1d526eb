import type { Page, Request } from 'playwright-core';

/**
 * A page's requests in flight, so a capture can wait for the network to settle: none in flight for a
 * short quiet window. Playwright's `networkidle` asks for 500 ms without a connection and is reached
 * once per load, so a capture taken soon after a load or a click waited out the rest of that half
 * second every time; this is the same question, asked now and answered in a tenth of it.
 */
export class NetworkQuiet {
  private readonly inFlight = new Set<Request>();
  private changedAt = Date.now();

  constructor(page: Page) {
    const started = (request: Request) => {
      this.inFlight.add(request);
      this.changedAt = Date.now();
    };
    const ended = (request: Request) => {
      if (this.inFlight.delete(request)) this.changedAt = Date.now();
    };
    page.on('request', started);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
  }

  /**
   * Waits until no request has been in flight for `quietMs`, or `timeoutMs` passes (a page that polls
   * for ever is captured as it is then). Answers whether it settled.
   */
  async settled(quietMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = Date.now();
      const quietFor = now - this.changedAt;
      if (this.inFlight.size === 0 && quietFor >= quietMs) return true;
      if (now >= deadline) return false;
      const wait = this.inFlight.size === 0 ? quietMs - quietFor : 25;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(wait, deadline - now))));
    }
  }
}
