import { existsSync } from 'node:fs';

/** Whether this process runs as root, where Chromium's sandbox cannot start. */
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/**
 * Flags this kind of machine needs (STACK-NOTES.md): no background network chatter, which a closed
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
