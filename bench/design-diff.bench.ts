/**
 * Design comparison benchmark (not a test): `npm run bench:design`.
 *
 * 1. Wall time of a whole three-viewport comparison (desktop 1920×1080, tablet 768×1024, mobile
 *    390×844): the fixture landing page (fixtures/design/landing.ts) with a planted change, against the
 *    clean page's captures as the design; capture, decode, metrics, regions, DOM reading and fixes.
 *    Warm (one run first), median of BENCH_RUNS. Aim: under 4 s.
 * 2. The diff kernel against pixelmatch 7 on the same 1920×1080 pairs, in the same run: the fixture's
 *    clean capture against (a) the moved-card variant's capture, (b) the clean capture with 3 % of its
 *    pixels changed in blocks (the case measured in docs/DECISIONS.md#image-processing). Median of BENCH_KERNEL_RUNS, ms per megapixel.
 *    Aim: ours at most 0.5× pixelmatch.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import {
  capturePage,
  compareDesignDetailed,
  decodeImage,
  diffImages,
  type RgbaImage,
  ssim,
} from '@argus/design-diff';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import { DEFAULT_VIEWPORTS } from '@argus/protocol';
import pixelmatch from 'pixelmatch';
import { landingPage, VARIANTS, type Variant } from '../fixtures/design/landing';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KERNEL_RUNS = Number(process.env.BENCH_KERNEL_RUNS ?? 30);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = createServer((req, res) => {
  const variant = (new URL(req.url ?? '/', 'http://x').searchParams.get('v') ?? 'clean') as Variant;
  if (!VARIANTS.includes(variant)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(landingPage(variant));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 3 });

async function capture(variant: Variant, viewport: { width: number; height: number }): Promise<Buffer> {
  const session = await pool.openSession({ viewport });
  try {
    return (await capturePage(session, `${site}?v=${variant}`, { settleMs: 1_000 })).png;
  } finally {
    await session.close();
  }
}

console.log(
  `design-diff bench — ${cpus().length} CPU(s), load ${loadavg()[0].toFixed(2)}, Node ${process.version}`,
);

// 1. A whole three-viewport comparison.
const designs: Record<string, Buffer> = {};
for (const [name, viewport] of Object.entries(DEFAULT_VIEWPORTS))
  designs[name] = await capture('clean', viewport);
const walls: number[] = [];
let last: Awaited<ReturnType<typeof compareDesignDetailed>> | null = null;
for (let i = 0; i <= RUNS; i++) {
  const started = performance.now();
  last = await compareDesignDetailed({ design: designs, url: `${site}?v=moved`, pool });
  if (i > 0) walls.push(performance.now() - started); // the first run warms up
}
console.log(
  `three-viewport comparison: median ${median(walls).toFixed(0)} ms (min ${Math.min(...walls).toFixed(0)}, max ${Math.max(...walls).toFixed(0)}, ${RUNS} runs); overall ${last!.results.overall_similarity}%, ${last!.results.specific_issues.length} issue(s)`,
);
for (const v of last!.viewports)
  console.log(
    `  ${v.name} ${v.width}×${v.comparedHeight}: ${Object.entries(v.timings)
      .map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`)
      .join(', ')}`,
  );

// 2. The kernel against pixelmatch on the same 1920×1080 pairs.
const crop = (img: RgbaImage, h: number): RgbaImage => ({
  data: new Uint8ClampedArray(img.data.subarray(0, img.width * h * 4)),
  width: img.width,
  height: h,
});
const clean = crop(await decodeImage(designs.desktop), 1080);
const moved = crop(await decodeImage(await capture('moved', DEFAULT_VIEWPORTS.desktop)), 1080);
const noisy: RgbaImage = { ...clean, data: new Uint8ClampedArray(clean.data) };
let changed = 0;
for (let by = 0; changed < 0.03 * 1920 * 1080; by += 97) {
  // 40×40 blocks across the image, inverted.
  const x0 = (by * 7) % (1920 - 40);
  const y0 = by % (1080 - 40);
  for (let y = y0; y < y0 + 40; y++)
    for (let x = x0; x < x0 + 40; x++) {
      const p = (y * 1920 + x) * 4;
      if (noisy.data[p] === clean.data[p]) changed++;
      noisy.data[p] = 255 - clean.data[p];
      noisy.data[p + 1] = 255 - clean.data[p + 1];
      noisy.data[p + 2] = 255 - clean.data[p + 2];
    }
}
const mp = (1920 * 1080) / 1e6;
for (const [label, other] of [
  ['fixture: clean vs moved card', moved],
  ['clean vs 3 % changed in blocks', noisy],
] as const) {
  const ours: number[] = [];
  const theirs: number[] = [];
  let counts = [0, 0];
  for (let i = 0; i < KERNEL_RUNS + 3; i++) {
    let t = performance.now();
    const a = diffImages(clean.data, other.data, 1920, 1080).count;
    const oursMs = performance.now() - t;
    t = performance.now();
    const b = pixelmatch(clean.data, other.data, undefined, 1920, 1080, { threshold: 0.1 });
    const theirsMs = performance.now() - t;
    counts = [a, b];
    if (i >= 3) {
      ours.push(oursMs);
      theirs.push(theirsMs);
    }
  }
  const o = median(ours) / mp;
  const p = median(theirs) / mp;
  console.log(
    `kernel, ${label}: ours ${o.toFixed(2)} ms/MP, pixelmatch ${p.toFixed(2)} ms/MP → ${(o / p).toFixed(2)}×; differing pixels ours ${counts[0]}, pixelmatch ${counts[1]}`,
  );
}
const ssimMs: number[] = [];
for (let i = 0; i < 10; i++) {
  const t = performance.now();
  ssim(clean, moved);
  ssimMs.push(performance.now() - t);
}
console.log(`SSIM (scale 4, 8×8 windows) on the 1920×1080 pair: median ${median(ssimMs).toFixed(1)} ms`);

await pool.close();
server.close();
