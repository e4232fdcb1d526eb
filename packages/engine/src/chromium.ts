import { existsSync } from 'node:fs';

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

/** The system Chromium: CHROMIUM_PATH, else Debian's binary (the wrapper script prints noise). */
export function findChromium(configured = process.env.CHROMIUM_PATH): string {
  const candidates = [
    configured,
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found: run `node scripts/setup.mjs`, set CHROMIUM_PATH, or set BROWSER_WS_ENDPOINT to a remote browser',
    );
  }
  return found;
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
 *   sessions paste their own clipboard as an untrusted event, which passes (perform-step.ts).
 */
export const PAGE_GUARD_SCRIPT = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
    try { delete globalThis[name]; } catch {}
  }
  addEventListener('paste', (event) => {
    if (!event.isTrusted) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
})();`;

/** Popups (and new tabs) a page under test may hold open at once, besides the session's own page. */
export const MAX_POPUPS_PER_CONTEXT = 3;
