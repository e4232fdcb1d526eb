import type { CDPSession, Page } from 'playwright-core';
import { untraced } from '../recording/untraced';
import { isWebPage } from '../web-url';
import type { CapturesInFlight } from './captures';
import type { SessionLifecycle } from './lifecycle';
import type { NavigationGuard } from './navigation-guard';
import { JPEG_QUALITY, viewportOf } from './options';

/** A JPEG of the viewport. */
export interface Screenshot {
  data: Buffer;
  /** The viewport's CSS size (the JPEG is this size at device scale 1). */
  width: number;
  height: number;
}

/**
 * JPEGs of the viewport, as a test's steps take them. A screenshot shows the page as it was when asked
 * for: the capture is sent to the browser at once and counted in flight, so changes wait for it.
 */
export class Screenshots {
  constructor(
    private readonly page: Page,
    private readonly lifecycle: SessionLifecycle,
    private readonly guard: NavigationGuard,
    private readonly captures: CapturesInFlight,
    private readonly cdp: () => Promise<CDPSession>,
  ) {}

  /** `BrowserSession.screenshot`: the capture is asked of the browser before this returns. */
  take(options: { quality?: number; signal?: AbortSignal } = {}): Promise<Screenshot> {
    return this.lifecycle.operation(options, async () => {
      if (!isWebPage(this.page.url())) await this.guard.refuseNonWebPage();
      const taken = await this.captures.track(this.capture(options.quality ?? JPEG_QUALITY));
      await this.guard.refuseIfLeft();
      return taken;
    });
  }

  /**
   * Straight from CDP: about half the cost of page.screenshot (docs/DECISIONS.md). Chromium captures
   * the frame when it handles the command, so the command is sent before anything else happens. Not an
   * action of the case's trace, which films the page itself (recording/untraced.ts).
   */
  private async capture(quality: number): Promise<Screenshot> {
    const size = viewportOf(this.page);
    const viaCdp = await untraced(this.page, () =>
      this.cdp().then((cdp) => cdp.send('Page.captureScreenshot', { format: 'jpeg', quality })),
    )
      .then((shot) => Buffer.from(shot.data, 'base64'))
      // CDP refuses while a new document is being committed; Playwright's own capture waits for it.
      .catch(() => null);
    const data = viaCdp ?? (await this.page.screenshot({ type: 'jpeg', quality, timeout: 5_000 }));
    return { data, width: size.width, height: size.height };
  }
}
