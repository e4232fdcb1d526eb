import { createSocket, type Socket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { CHROMIUM_ARGS, findChromium, findFullChromium, WEBRTC_ARGS } from './chromium';
import { TargetPolicy } from './target-policy';

/**
 * WebRTC sends UDP (STUN) straight from the browser, never through the HTTP policy proxy: a page the
 * policy allows must not reach an address it refuses that way. A UDP socket on 127.0.0.1 stands for a
 * service the policy forbids; the page (shop.test, allowed by name) asks for it as its STUN server.
 */

let stun: Socket;
let stunPort: number;
let packets = 0;
let site: Server;
let sitePort: number;

/** Tries a peer connection from `win`, and answers what it got: 'unavailable', or the ICE state reached. */
const PAGE = (port: number) => `<title>rtc</title><script>
async function attempt(win, name) {
  try {
    const PC = win[name];
    if (typeof PC !== 'function') return 'unavailable';
    const pc = new PC({ iceServers: [{ urls: 'stun:127.0.0.1:${port}' }] });
    pc.createDataChannel('probe');
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((done) => {
      if (pc.iceGatheringState === 'complete') done();
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && done();
      setTimeout(done, 2000);
    });
    return 'gathered';
  } catch (error) {
    return 'refused: ' + error.message;
  }
}
window.probe = async () => {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const results = [];
  for (const [win, where] of [[window, 'page'], [frame.contentWindow, 'fresh iframe']])
    for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection'])
      results.push(where + ' ' + name + ': ' + (await attempt(win, name)));
  results.push('page RTCDataChannel: ' + typeof window.RTCDataChannel);
  return results;
};
</script>`;

beforeAll(async () => {
  stun = createSocket('udp4');
  stun.on('message', () => packets++);
  await new Promise<void>((r) => stun.bind(0, '127.0.0.1', r));
  stunPort = stun.address().port;
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(stunPort));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  stun.close();
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

/** `shop.test` stands for a public site: allowed by name, served from this machine; 127.0.0.1 is not allowed. */
const policy = () =>
  new TargetPolicy({
    allowedTargets: ['shop.test'],
    resolve: async (host) => {
      if (host === 'shop.test') return ['127.0.0.1'];
      throw new Error('ENOTFOUND');
    },
  });

let remote: BrowserServer | undefined;
beforeAll(async () => {
  // A remote browser we do not configure: none of our WebRTC switches (the engine's page script is
  // what stands between its pages and UDP, and the managed policy when one is installed here).
  remote = await chromium.launchServer({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS.filter((arg) => !WEBRTC_ARGS.includes(arg)),
    host: '127.0.0.1',
  });
});
afterAll(() => remote?.close());

describe.each([
  ['local browser', () => new BrowserPool({ policy: policy(), maxContexts: 1 })],
  [
    'remote browser',
    () => new BrowserPool({ policy: policy(), maxContexts: 1, wsEndpoint: remote?.wsEndpoint() }),
  ],
])('WebRTC in a page under test (%s)', (_name, makePool) => {
  it('sends no STUN packet to an address the target policy refuses, from the page or a fresh iframe', async () => {
    const pool = makePool();
    const before = packets;
    try {
      const session = await pool.openSession();
      await session.navigate(`http://shop.test:${sitePort}/`);
      const results = await session.evaluate(
        () => (window as unknown as { probe: () => string[] }).probe(),
        null,
      );
      // The page script removes the constructors in every frame, whatever the browser's switches.
      expect(results).toEqual([
        'page RTCPeerConnection: unavailable',
        'page webkitRTCPeerConnection: unavailable',
        'fresh iframe RTCPeerConnection: unavailable',
        'fresh iframe webkitRTCPeerConnection: unavailable',
        'page RTCDataChannel: undefined',
      ]);
      // A retransmitted STUN request would come within this pause.
      await new Promise((r) => setTimeout(r, 300));
      expect(packets - before).toBe(0);
      await session.close();
    } finally {
      await pool.close();
    }
  });
});

/** Peer connections built by the probe page in a browser without the engine's page script. */
async function probeBare(
  args: string[],
  executablePath = findChromium(),
): Promise<{ results: string[]; packets: number }> {
  const browser = await chromium.launch({ executablePath, args });
  const before = packets;
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${sitePort}/`);
    const results = await page.evaluate(() => (window as unknown as { probe: () => string[] }).probe());
    await new Promise((r) => setTimeout(r, 300));
    return { results: results.slice(0, 4), packets: packets - before };
  } finally {
    await browser.close();
  }
}
const GATHERED = [
  'page RTCPeerConnection: gathered',
  'page webkitRTCPeerConnection: gathered',
  'fresh iframe RTCPeerConnection: gathered',
  'fresh iframe webkitRTCPeerConnection: gathered',
];

describe("Chromium's own layers, without the engine's page script", () => {
  it('a browser launched with CHROMIUM_ARGS lets a page build a peer connection but sends no STUN packet', async () => {
    expect(await probeBare(CHROMIUM_ARGS)).toEqual({ results: GATHERED, packets: 0 });
  });

  const policyFile = '/etc/chromium/policies/managed/argus-webrtc.json';
  it.skipIf(!existsSync(policyFile))(
    'the managed policy scripts/setup.mjs writes sends no STUN packet without the switches either',
    async () => {
      const args = CHROMIUM_ARGS.filter((arg) => !WEBRTC_ARGS.includes(arg));
      // The full browser reads it; the headless shell reads no policy files.
      expect(await probeBare(args, findFullChromium())).toEqual({ results: GATHERED, packets: 0 });
    },
  );
});
