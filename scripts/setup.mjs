#!/usr/bin/env node
// Installs what is missing before `npm start` / `npm test`: npm packages, and a Chromium from the
// system package manager when none is found. Uses Node built-ins only (it runs before npm ci, and
// scripts/build-once.mjs is built-ins only too) and returns in well under a second when nothing is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withLock } from './build-once.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[setup] ${message}`);

// 1. Node itself.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`[setup] Node ${process.versions.node} is too old: Argus needs Node 20.19 or newer.`);
  process.exit(1);
}

// 2. npm packages: install when node_modules is missing or older than the lock file. `npm ci`, never
// `npm install`: it installs exactly the committed lock file and never rewrites it, so a fresh clone stays
// clean (the lock holds every platform's optional binaries, so it matches package.json on any of them).
// Under a lock: two `npm start`s at once on a fresh clone would otherwise both empty node_modules.
const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
const needsInstall = () =>
  !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs + 1000);
if (needsInstall()) {
  await withLock(
    root,
    'npm-ci',
    () => {
      if (!needsInstall()) return; // another process installed while this one waited
      log('$ npm ci --no-audit --no-fund');
      const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: root });
      if (ci.status !== 0) {
        console.error(
          '[setup] npm ci failed. If package.json changed without package-lock.json, run `npm install` ' +
            'to update the lock file (and commit it).',
        );
        process.exit(ci.status ?? 1);
      }
    },
    log,
  );
}

// 3. A browser, unless a remote one is configured: Debian's Chromium, and its headless shell, which
// the engine prefers (a context opens in a quarter of the time; docs/DECISIONS.md#chromium). The full
// browser stays installed: the managed policies below are its own layer, and it is the fallback.
const fullChromium = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];
const headlessShell = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];
const configured = process.env.BROWSER_WS_ENDPOINT || process.env.CHROMIUM_PATH;
const missing = configured
  ? []
  : [
      ...(fullChromium.some((p) => existsSync(p)) ? [] : ['chromium']),
      ...(headlessShell.some((p) => existsSync(p)) ? [] : ['chromium-headless-shell']),
    ];
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  const needed = missing.includes('chromium');
  // Only the optional shell missing, and not root: no sudo prompt on every start; say how instead.
  if (!needed && !isRoot) {
    log(
      'Optional: `sudo apt-get install chromium-headless-shell` makes browser work about 1.6 times faster.',
    );
  } else if (hasApt) {
    const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (...args) => {
      const [command, argv] = isRoot ? ['apt-get', args] : ['sudo', ['apt-get', ...args]];
      log(`$ ${command} ${argv.join(' ')}`);
      return spawnSync(command, argv, { stdio: 'inherit', cwd: root, env: aptEnv }).status === 0;
    };
    log(`Installing the Debian/Ubuntu packages ${missing.map((m) => `"${m}"`).join(' and ')} (about 30 s).`);
    const installed = apt('update', '-qq') && apt('install', '-y', '-qq', ...missing);
    if (!installed && needed) {
      console.error(
        '[setup] Could not install Chromium. Install it and set CHROMIUM_PATH, or set BROWSER_WS_ENDPOINT.',
      );
      process.exit(1);
    }
    if (!installed)
      console.warn('[setup] Could not install chromium-headless-shell: the full Chromium is used.');
  } else if (needed) {
    console.warn(
      '[setup] No Chromium found and no apt-get to install one. Install Chromium and set CHROMIUM_PATH, ' +
        'or set BROWSER_WS_ENDPOINT to a remote browser. Browser features and browser tests will fail.',
    );
  }
}

// 3b. Video of failed cases (docs/DIAGNOSTICS.md#video) is Playwright's recordVideo, which encodes with
// an ffmpeg at a fixed place in Playwright's registry; that build is a download this machine may not be
// able to make, so Debian's ffmpeg (VP8 through libvpx, what recordVideo asks for) is linked there.
// Without it a case still runs; it keeps no video and its log says why.
{
  const browsersJson = join(root, 'node_modules', 'playwright-core', 'browsers.json');
  const revision = existsSync(browsersJson)
    ? JSON.parse(readFileSync(browsersJson, 'utf8')).browsers.find((b) => b.name === 'ffmpeg')?.revision
    : undefined;
  const registry = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  const target = revision ? join(registry, `ffmpeg-${revision}`, 'ffmpeg-linux') : undefined;
  if (target && process.platform === 'linux' && !configured && !existsSync(target)) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!existsSync('/usr/bin/ffmpeg') && isRoot && existsSync('/usr/bin/apt-get')) {
      log('Installing the Debian/Ubuntu package "ffmpeg" for videos of failed cases (about 30 s).');
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      const install = () =>
        spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'ffmpeg'], {
          stdio: 'inherit',
          env,
        }).status === 0;
      // The package lists may be missing on a fresh machine whose Chromium came preinstalled.
      if (!install()) {
        spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
        install();
      }
    }
    if (existsSync('/usr/bin/ffmpeg')) {
      mkdirSync(dirname(target), { recursive: true });
      try {
        symlinkSync('/usr/bin/ffmpeg', target);
        log(`Linked /usr/bin/ffmpeg as Playwright's video encoder (${target}).`);
      } catch (error) {
        console.warn(`[setup] Could not link ffmpeg for videos: ${error.message}`);
      }
    } else {
      log('No ffmpeg: failed cases keep no video (`sudo apt-get install ffmpeg`, then run this again).');
    }
  }
}

// 4. Defence in depth for the target policy: Chromium itself refuses local files and its own pages,
// whatever a test step, a script or a bug in the engine asks for. Debian's Chromium reads managed
// policies from /etc/chromium/policies/managed (Google Chrome from /etc/opt/chrome/...).
// `chrome://*` is safe to block for Playwright (measured with Chromium 156 and playwright-core 1.65,
// local and launchServer()): new pages still open on about:blank, screenshots and CDP screencasts
// work, and a blocked chrome:// page becomes the error page in the same tab, which stays open
// (target-policy-ssrf.browser.test.ts checks this whenever the file is installed).
const blocklist = {
  URLBlocklist: ['file://*', 'chrome://*', 'chrome-extension://*', 'view-source:*', 'devtools://*'],
};
// WebRTC sends UDP straight to any address a page names, around the policy proxy: only what goes
// through the proxy is left to it. Chromium 156 reads `WebRtcIPHandling` and ignores the older
// `WebRtcIPHandlingPolicy` (measured: STUN still sent); both are written for older builds. The engine
// passes the same as a launch switch and removes WebRTC from pages under test itself.
const webrtc = {
  WebRtcIPHandling: 'disable_non_proxied_udp',
  WebRtcIPHandlingPolicy: 'disable_non_proxied_udp',
};
const policies = [
  [
    'argus-url-blocklist.json',
    blocklist,
    'Chromium refuses file://, chrome://, view-source: and devtools:// pages',
  ],
  ['argus-webrtc.json', webrtc, 'Chromium sends no WebRTC UDP around the policy proxy'],
];
for (const dir of ['/etc/chromium/policies/managed', '/etc/opt/chrome/policies/managed']) {
  const browserHome = dir.startsWith('/etc/chromium') ? '/usr/lib/chromium' : '/opt/google/chrome';
  if (!existsSync(browserHome)) continue;
  for (const [name, policy, what] of policies) {
    const policyText = `${JSON.stringify(policy, null, 2)}\n`;
    const file = join(dir, name);
    if (existsSync(file) && readFileSync(file, 'utf8') === policyText) continue;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      writeFileSync(file, policyText, { mode: 0o644 });
      log(`Wrote ${file}: ${what}.`);
    } catch (error) {
      console.warn(
        `[setup] Could not write ${file} (${error.code ?? error.message}). As root, write this file so ` +
          `${what} (the engine guards against it too):\n${policyText}`,
      );
    }
  }
}

// 5. The `argus` command line (packages/cli, docs/CI.md): a bundle that `npx argus` runs with plain node
// (a few hundred milliseconds when it is up to date).
await import('./build-cli.mjs');
