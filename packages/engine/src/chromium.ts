import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Whether this process runs as root, where Chromium's sandbox cannot start. */
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/**
 * WebRTC sends UDP (STUN, media) straight from the browser, around the HTTP policy proxy, to any
 * address a page names. `disable_non_proxied_udp` leaves WebRTC only what goes through the proxy
 * (TCP, judged there). Chromium 156 reads `--webrtc-ip-handling-policy` and ignores the older
 * `--force-webrtc-ip-handling-policy` (measured: STUN still sent); both are passed for older builds.
 * The managed policy scripts/setup.mjs writes and the engine's page script are the other two layers.
 */
export const WEBRTC_ARGS = [
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Flags this kind of machine needs (docs/DECISIONS.md#chromium): no background network chatter, which a closed
 * network answers with refused connections at every start; and `--no-sandbox` only as root, where
 * Chromium refuses to start sandboxed (the server warns at start-up: run it as another user).
 */
export const CHROMIUM_ARGS = [
  ...(RUNNING_AS_ROOT ? ['--no-sandbox'] : []),
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  ...WEBRTC_ARGS,
];

/**
 * Debian's `chromium-headless-shell`: the old headless mode as its own build (what Playwright runs for
 * headless by default). Measured here: a context and page in ≈ 82 ms against ≈ 330 ms for the full
 * browser, and a fixture app explored in 60 % of the time (docs/DECISIONS.md#chromium). It reads no
 * managed policies, so the schemes the block list refuses are refused through CDP as well
 * ({@link refuseLocalSchemes}), in every browser the engine uses.
 */
const HEADLESS_SHELL_PATHS = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
];
/** The full browser; `/usr/bin/chromium` is a wrapper script that prints noise, so the binary comes first. */
const FULL_CHROMIUM_PATHS = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/**
 * The browser to launch: CHROMIUM_PATH when set, else Debian's headless shell when installed (scripts/
 * setup.mjs installs it), else the full Chromium.
 */
export function findChromium(configured = process.env.CHROMIUM_PATH): string {
  return firstExisting([configured, ...HEADLESS_SHELL_PATHS, ...FULL_CHROMIUM_PATHS]);
}

/** The full Chromium, whatever CHROMIUM_PATH says: for checks of what only it does (managed policies). */
export function findFullChromium(): string {
  return firstExisting(FULL_CHROMIUM_PATHS);
}

function firstExisting(candidates: (string | undefined)[]): string {
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found: run `node scripts/setup.mjs`, set CHROMIUM_PATH, or set BROWSER_WS_ENDPOINT to a remote browser',
    );
  }
  return found;
}

/**
 * Schemes no page of the engine's browser may load, whoever asks: local files and the browser's own
 * pages. The engine navigates only to http(s) (target-policy.ts), and pages cannot navigate to these
 * themselves; this is the layer under both, for a bug in the engine.
 */
export const REFUSED_SCHEMES = ['file', 'chrome', 'chrome-extension', 'view-source', 'devtools'] as const;

/**
 * Makes the browser refuse {@link REFUSED_SCHEMES} in every context, page, popup and frame it will ever
 * have: one browser-wide CDP `Fetch` interception, matching only those schemes (http(s) requests are
 * never paused), failing each request as blocked by the client. Chromium's managed URL block list does
 * the same for the full browser, but the headless shell and most remote browsers read no policy files.
 * Resolves once the interception is on, so nothing is loaded before it.
 */
export async function refuseLocalSchemes(browser: Browser): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  session.on('Fetch.requestPaused', (event) => {
    session
      .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      .catch(() => {
        // the request's target went away first
      });
  });
  await session.send('Fetch.enable', {
    patterns: REFUSED_SCHEMES.map((scheme) => ({ urlPattern: `${scheme}:*` })),
  });
}

/**
 * The page script every context of the pool runs in every frame before the page's own scripts (local
 * and remote browsers alike; Chromium runs it in about:blank iframes a script creates and reads at
 * once, and in popups):
 * - pages under test get no WebRTC, so no UDP that the policy proxy would never see, even where the
 *   browser's switches and managed policy are missing (a remote browser);
 * - a paste that comes from the browser's own clipboard (trusted: a middle click pasting the selection
 *   another user's page made, a chord that reached the browser) is cancelled before any handler of the
 *   page sees its data. One browser serves every user, so its clipboard holds other users' text;
 *   sessions paste their own clipboard as an untrusted event, which passes (perform-step.ts);
 * - `window.open` without a user gesture opens nothing, as Chromium's popup blocker has it (the full
 *   browser's blocker is on; the headless shell and remote browsers have none): one click, one window,
 *   since opening a window uses up the click's activation. Windows that come some other way (a
 *   script-clicked `target=_blank` link) are capped per context by the pool (MAX_POPUPS_PER_CONTEXT).
 */
export const PAGE_GUARD_SCRIPT = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
    try { delete globalThis[name]; } catch {}
  }
  const open = window.open;
  try {
    Object.defineProperty(window, 'open', {
      value: function open_(...args) {
        return navigator.userActivation && !navigator.userActivation.isActive ? null : Reflect.apply(open, window, args);
      },
      writable: false,
      configurable: false,
    });
  } catch {}
  addEventListener('paste', (event) => {
    if (!event.isTrusted) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
})();`;

/** Popups (and new tabs) a page under test may hold open at once, besides the session's own page. */
export const MAX_POPUPS_PER_CONTEXT = 3;
