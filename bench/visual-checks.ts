/**
 * Section 5 of the automation benchmark (`bench/automation.bench.ts`; issue 40): what a visual check
 * adds to its case. A small suite (3 cases of 3–4 steps) on a 1440×900 landing page with a ticking
 * clock, each case run without and with `Verify the page looks as approved` at its end (baselines
 * approved first, so the timed checks compare and answer `same`), paired per case and round, the
 * order rotating; also on the same page without its clock. Then `compareWithBaseline` alone at
 * 1440×900 (identical, clock masked, a colour, a 12 px shift, a removed box) and the PNG decode.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Box,
  COMPARING_GAP_MS,
  captureSettled,
  compareWithBaseline,
  createVisualChecks,
  decodeImage,
  encodePng,
  MemoryBaselineStore,
  type RgbaImage,
} from '@argus/design-diff';
import type { VisualChecks } from '@argus/engine';
import { BrowserPool, CHROMIUM_ARGS, findChromium, runTestCase, TargetPolicy } from '@argus/engine';
import { TestCaseSchema } from '@argus/protocol';
import { chromium } from 'playwright-core';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(0)} ms`;

export interface VisualBench {
  /** Rows of the benchmark's main table, and its summary lines. */
  rows: string[][];
  summary: string[];
  /** Where a check's time goes, per page. */
  visualRows: string[][];
  /** The Chromium version, when the section launched one to read it. */
  chromiumVersion: string;
}

/** Runs the visual checks' section; `chromiumVersion` as known so far ('' when none was read). */
export async function benchVisualChecks(known: string): Promise<VisualBench> {
  const rows: string[][] = [];
  const summary: string[] = [];
  const visualRows: string[][] = [];
  let chromiumVersion = known;
  const VISUAL_ROUNDS = Number(process.env.BENCH_VISUAL_ROUNDS ?? 6);
  const DIFF_RUNS = Number(process.env.BENCH_DIFF_RUNS ?? 30);
  const VIEWPORT = { width: 1440, height: 900 };
  const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.9) - 1];
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(landing(query.get('v') ?? 'clean', query.get('clock') !== '0'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 1,
  });
  if (!chromiumVersion) {
    const browser = await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    chromiumVersion = browser.version();
    await browser.close();
  }

  // The suite: 3 cases of 3–4 steps; `with` adds one page check at the end of each.
  const suite: Record<string, string[]> = {
    trial: [
      'Verify heading "Ship tests, not flakes" is visible',
      'Click button "Start free trial"',
      'Verify text "Trial started: 14 days left" is visible',
    ],
    subscribe: [
      'Fill "Email" with "ada@example.test"',
      'Click button "Subscribe"',
      'Verify text "Thanks, ada@example.test is subscribed" is visible',
    ],
    details: ['Click button "Show details"', 'Verify text "Runs on your own hardware" is visible'],
  };
  /** Per check: the port's whole time and its parts (captures, page scripts), as the engine ran it. */
  interface CheckProfile {
    total: number;
    captures: number[];
    scripts: number;
  }
  const profiles: Record<string, CheckProfile[]> = { clock: [], still: [] };
  const stores = new Map<string, MemoryBaselineStore>();
  const ports = new Map<string, VisualChecks>();
  // One store per case and page (a server keeps baselines per case); the port wrapped to time its parts.
  const portFor = (key: string, page: 'clock' | 'still', record: () => boolean): VisualChecks => {
    let port = ports.get(key);
    if (port) return port;
    const store = new MemoryBaselineStore();
    const inner = createVisualChecks(store);
    stores.set(key, store);
    port = {
      async check(request, signal) {
        const profile: CheckProfile = { total: 0, captures: [], scripts: 0 };
        const session = request.session;
        const timed: typeof session = {
          async capturePage(options) {
            const t = performance.now();
            const shot = await session.capturePage(options);
            profile.captures.push(performance.now() - t);
            return shot;
          },
          async evaluate(fn, arg, options) {
            const t = performance.now();
            const answer = await session.evaluate(fn, arg, options);
            profile.scripts += performance.now() - t;
            return answer;
          },
        };
        const t = performance.now();
        const verdict = await inner.check({ ...request, session: timed }, signal);
        profile.total = performance.now() - t;
        if (record()) profiles[page].push(profile);
        return verdict;
      },
    };
    ports.set(key, port);
    return port;
  };
  let timing = false;
  const runCase = async (name: string, page: 'clock' | 'still', visual: boolean) => {
    const target = `${url}?clock=${page === 'clock' ? 1 : 0}`;
    const testCase = TestCaseSchema.parse({
      test_name: name,
      steps: [
        `Navigate to ${target}`,
        ...suite[name],
        ...(visual ? ['Verify the page looks as approved'] : []),
      ],
    });
    const key = `${page}/${name}`;
    const t = performance.now();
    const outcome = await runTestCase(pool, testCase, {
      baseUrl: url,
      viewport: VIEWPORT,
      ...(visual ? { visual: portFor(key, page, () => timing) } : {}),
    });
    const took = performance.now() - t;
    if (outcome.status !== 'passed') throw new Error(`visual bench: ${key} failed: ${outcome.error}`);
    return { took, checks: outcome.visualChecks ?? [] };
  };

  // Baselines: each case's first check is `new`, approved; the next run must find the page `same`.
  const checkKey = { name: 'page', viewport: VIEWPORT };
  for (const page of ['clock', 'still'] as const) {
    for (const name of Object.keys(suite)) {
      await runCase(name, page, true);
      stores.get(`${page}/${name}`)?.approve(checkKey);
      const again = await runCase(name, page, true);
      if (again.checks[0]?.status !== 'same')
        throw new Error(
          `visual bench: ${page}/${name} is ${again.checks[0]?.status}: ${again.checks[0]?.message}`,
        );
      await runCase(name, page, false);
    }
  }
  const clockMasks = (await stores.get('clock/trial')?.baselineOf(checkKey))?.masks.length ?? 0;

  // Timed: per round and case the four variants back to back, the order rotating each round.
  timing = true;
  const variants = [
    ['clock', false],
    ['clock', true],
    ['still', false],
    ['still', true],
  ] as const;
  const caseTimes = new Map<string, number[]>(variants.map(([p, v]) => [`${p}/${v}`, []]));
  const added: Record<string, number[]> = { clock: [], still: [] };
  const notSame: string[] = [];
  for (let round = 0; round < VISUAL_ROUNDS; round++) {
    for (const name of Object.keys(suite)) {
      const took: Record<string, number> = {};
      for (let k = 0; k < variants.length; k++) {
        const [page, visual] = variants[(k + round) % variants.length];
        const run = await runCase(name, page, visual);
        if (visual && run.checks[0]?.status !== 'same')
          notSame.push(`${page}/${name}: ${run.checks[0]?.message}`);
        took[`${page}/${visual}`] = run.took;
        caseTimes.get(`${page}/${visual}`)?.push(run.took);
      }
      for (const page of ['clock', 'still'] as const)
        added[page].push(took[`${page}/true`] - took[`${page}/false`]);
    }
  }
  timing = false;
  if (notSame.length) throw new Error(`visual bench: timed checks not 'same':\n${notSame.join('\n')}`);

  const cases = Object.keys(suite).length;
  for (const page of ['clock', 'still'] as const) {
    const without = median(caseTimes.get(`${page}/false`) ?? []);
    const withCheck = median(caseTimes.get(`${page}/true`) ?? []);
    const what = page === 'clock' ? 'with a ticking clock (masked by its baseline)' : 'without its clock';
    rows.push([
      `1440×900 landing page ${what}: a case (3–4 steps) without visual checks, median of ${cases} cases × ${VISUAL_ROUNDS}`,
      ms(without),
      '1.00×',
    ]);
    rows.push([
      `  the same case + \`Verify the page looks as approved\` (\`same\`)`,
      ms(withCheck),
      `${(withCheck / without).toFixed(2)}×`,
    ]);
    rows.push([
      '  added per visual check (paired per case and round): median / p90',
      `${ms(median(added[page]))} / ${ms(p90(added[page]))}`,
      'budget ≤ 300 ms',
    ]);
    summary.push(
      `visual check, ${page === 'clock' ? 'page with clock' : 'still page'}: +${median(added[page]).toFixed(0)} ms median, +${p90(added[page]).toFixed(0)} ms p90 (${(withCheck / without).toFixed(2)}× the case)`,
    );
  }

  // Where a check's time goes (the port's own time; the rest of `added` is the step around it).
  for (const page of ['clock', 'still'] as const) {
    const ps = profiles[page];
    const total = median(ps.map((p) => p.total));
    const shots = median(ps.map((p) => p.captures.length));
    const capture = median(ps.map((p) => p.captures.reduce((a, b) => a + b, 0)));
    const each = median(ps.flatMap((p) => p.captures));
    const scripts = median(ps.map((p) => p.scripts));
    const gaps = COMPARING_GAP_MS * (shots - 1);
    const rest = median(
      ps.map(
        (p) =>
          p.total -
          p.captures.reduce((a, b) => a + b, 0) -
          p.scripts -
          COMPARING_GAP_MS * (p.captures.length - 1),
      ),
    );
    visualRows.push([
      page === 'clock' ? 'with clock' : 'still',
      ms(median(added[page])),
      ms(total),
      `${shots} × ${ms(each)} = ${ms(capture)}`,
      `${shots - 1} × ${COMPARING_GAP_MS} = ${ms(gaps)}`,
      ms(scripts),
      ms(rest),
      ms(median(added[page]) - total),
    ]);
  }

  // compareWithBaseline alone at 1440×900, as a check calls it: the approved capture, this run's capture,
  // masked by the baseline's moving boxes and this capture's.
  const session = await pool.openSession({ viewport: VIEWPORT });
  const settled = async (v: string) => {
    await session.navigate(`${url}?v=${v}`, { timeoutMs: 30_000 });
    return captureSettled(session, { settleMs: 1_000 });
  };
  const baseline = await settled('clean');
  const baselinePng = baseline.png;
  const cases2: [string, RgbaImage, Box[], string][] = [
    ['identical (the same bytes)', baseline.image, [], 'same'],
  ];
  for (const [label, v, expect] of [
    ['the same page, clock masked', 'clean', 'same'],
    ['one colour change (the call-to-action button)', 'colour', 'changed'],
    ['a 12 px shift (the second feature card)', 'shift', 'changed'],
    ['a removed box (the testimonial)', 'removed', 'changed'],
  ] as const) {
    const now = await settled(v);
    cases2.push([label, now.image, [...baseline.moving, ...now.moving], expect]);
  }
  const shotTimes: number[] = [];
  for (let i = 0; i < DIFF_RUNS; i++) {
    const t = performance.now();
    await session.capturePage({ fullPage: true, settleMs: 1_000 });
    shotTimes.push(performance.now() - t);
  }
  await session.close();
  const timeIt = async (fn: () => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < DIFF_RUNS + 2; i++) {
      const t = performance.now();
      await fn();
      if (i >= 2) times.push(performance.now() - t);
    }
    return times;
  };
  const decoded = await decodeImage(baselinePng);
  for (const [label, current, ignore, expect] of cases2) {
    let last: ReturnType<typeof compareWithBaseline> | undefined;
    const times = await timeIt(() => {
      last = compareWithBaseline({ baseline: decoded, current, ignore, threshold: 0 });
    });
    const verdict = last?.changed ? 'changed' : 'same';
    if (verdict !== expect) throw new Error(`visual bench: ${label} compared ${verdict}`);
    const issues = last?.issues.map((i) => i.kind).join(', ') || 'none';
    rows.push([
      `\`compareWithBaseline\` 1440×900, ${label}: ${verdict}, issues: ${issues}; median / p90 of ${DIFF_RUNS}`,
      `${median(times).toFixed(1)} / ${p90(times).toFixed(1)} ms`,
      'budget ≤ 20 ms',
    ]);
  }
  const decodeTimes = await timeIt(() => decodeImage(baselinePng));
  const encodeTimes = await timeIt(() => encodePng(decoded));
  rows.push([
    `PNG decode of a 1440×900 capture (sharp; ${(baselinePng.length / 1024).toFixed(0)} KiB), median of ${DIFF_RUNS}`,
    `${median(decodeTimes).toFixed(1)} ms`,
    'per capture, and the baseline once',
  ]);
  rows.push([
    "PNG encode of 1440×900 (sharp; a `changed` check's difference picture, drawn when asked)",
    `${median(encodeTimes).toFixed(1)} ms`,
    '',
  ]);
  rows.push([
    `One full-page PNG capture (\`capturePage\`: settle check, height, Chromium's PNG), median of ${DIFF_RUNS}`,
    ms(median(shotTimes)),
    '',
  ]);
  summary.push(`clock masks in the approved baselines: ${clockMasks}`);
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  return { rows, summary, visualRows, chromiumVersion };
}

/**
 * A 1440×900 landing page: a nav with a logo and a ticking clock, a hero with an illustration drawn in
 * CSS, three feature cards with CSS icons, a testimonial and a sign-up form, a footer; all within
 * 900 px. `v` plants a change: `colour` (the button), `shift` (the second card 12 px down), `removed`
 * (the testimonial hidden).
 */
function landing(v: string, clock: boolean): string {
  const card = (title: string, text: string, icon: string, extra = '') =>
    `<article class="card"${extra}><div class="icon" style="background:${icon}"></div><h3>${title}</h3><p>${text}</p></article>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Argus landing</title><style>
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 900px; overflow: hidden; }
  body { font: 16px/1.5 system-ui, sans-serif; color: #1d2433; background: #f6f7fb; }
  nav { height: 64px; display: flex; align-items: center; gap: 28px; padding: 0 48px; background: #fff; border-bottom: 1px solid #e3e6ef; }
  .logo { width: 32px; height: 32px; border-radius: 50%; background: conic-gradient(#4f46e5, #06b6d4, #22c55e, #4f46e5); }
  nav a { color: #3b4256; text-decoration: none; } nav .brand { font-weight: 700; font-size: 20px; color: #1d2433; }
  #clock { margin-left: auto; font: 15px ui-monospace, monospace; color: #4f46e5; }
  .hero { height: 340px; display: flex; align-items: center; gap: 64px; padding: 0 96px; background: linear-gradient(120deg, #eef2ff, #ecfeff); }
  .hero h1 { font-size: 48px; line-height: 1.1; margin: 0 0 16px; } .hero p { font-size: 19px; max-width: 560px; margin: 0 0 24px; }
  .cta { font: 600 17px system-ui, sans-serif; color: #fff; background: ${v === 'colour' ? '#0d9488' : '#4f46e5'}; border: 0; border-radius: 8px; padding: 14px 26px; }
  #trial { display: inline-block; margin-left: 16px; min-width: 220px; color: #0f766e; font-weight: 600; }
  .art { position: relative; flex: none; width: 420px; height: 260px; border-radius: 16px; overflow: hidden;
    background: radial-gradient(circle at 75% 30%, #fde68a 0 34px, transparent 35px), linear-gradient(#93c5fd, #dbeafe 65%, #86efac 65%); }
  .art::before { content: ''; position: absolute; left: 40px; bottom: 60px; border: 90px solid transparent; border-bottom: 120px solid #64748b; border-top: 0; }
  .art::after { content: ''; position: absolute; left: 170px; bottom: 60px; border: 70px solid transparent; border-bottom: 95px solid #475569; border-top: 0; }
  .features { display: grid; grid-template-columns: repeat(3, 1fr); gap: 24px; padding: 28px 96px 0; height: 230px; }
  .card { background: #fff; border: 1px solid #e3e6ef; border-radius: 12px; padding: 18px 22px; height: 196px; }
  .card h3 { margin: 10px 0 6px; font-size: 18px; } .card p { margin: 0; color: #4a5268; font-size: 15px; }
  .icon { width: 40px; height: 40px; border-radius: 10px; }
  .lower { display: flex; gap: 24px; padding: 12px 96px; height: 190px; }
  .quote { flex: 1.3; background: #1d2433; color: #e5e7f0; border-radius: 12px; padding: 22px 28px; ${v === 'removed' ? 'visibility: hidden;' : ''} }
  .quote p { margin: 0 0 10px; font-size: 18px; font-style: italic; } .quote small { color: #a5b4fc; }
  form { flex: 1; background: #fff; border: 1px solid #e3e6ef; border-radius: 12px; padding: 18px 24px; }
  form label { display: block; font-weight: 600; margin-bottom: 6px; }
  form input { font: inherit; width: 260px; padding: 8px 10px; border: 1px solid #c5cada; border-radius: 6px; }
  form button { font: inherit; margin-left: 8px; padding: 8px 16px; border: 0; border-radius: 6px; background: #0f172a; color: #fff; }
  #thanks { height: 24px; margin: 10px 0 0; color: #0f766e; }
  #details { height: 24px; margin: 6px 0 0; color: #4a5268; font-size: 14px; }
  footer { height: 76px; display: flex; align-items: center; padding: 0 96px; color: #6b7280; font-size: 14px; border-top: 1px solid #e3e6ef; background: #fff; }
</style></head><body>
  <nav><div class="logo"></div><a class="brand" href="#">Argus</a><a href="#features">Features</a><a href="#pricing">Pricing</a><a href="#docs">Docs</a>${clock ? '<span id="clock"></span>' : ''}</nav>
  <section class="hero"><div><h1>Ship tests, not flakes</h1><p>Describe what your site should do in plain words; Argus runs it in a real browser and tells you what changed.</p>
    <button class="cta" type="button" onclick="document.getElementById('trial').textContent = 'Trial started: 14 days left'">Start free trial</button><span id="trial"></span></div>
    <div class="art" role="img" aria-label="Mountains under a sun"></div></section>
  <section class="features" id="features">
    ${card('Plain-language steps', 'Write "Click Sign in" and "Verify text Welcome is visible"; no selectors to keep up.', 'linear-gradient(135deg, #818cf8, #4f46e5)')}
    ${card('Visual checks', 'Each approved page is compared with its baseline; what moves by itself is masked.', 'radial-gradient(circle, #22d3ee 40%, #0891b2 42%)', v === 'shift' ? ' style="position: relative; top: 12px"' : '')}
    ${card('Self-hosted', 'Your tests, your data, your machines. <button type="button" onclick="document.getElementById(\'details\').textContent = \'Runs on your own hardware\'">Show details</button><span id="details" style="display:block"></span>', 'repeating-linear-gradient(45deg, #86efac 0 6px, #22c55e 6px 12px)')}
  </section>
  <section class="lower" id="pricing">
    <blockquote class="quote"><p>"We replaced four hundred brittle end-to-end tests with forty sentences, and we sleep again."</p><small>— Ada, QA lead at Example Corp</small></blockquote>
    <form onsubmit="event.preventDefault(); document.getElementById('thanks').textContent = 'Thanks, ' + document.getElementById('email').value + ' is subscribed'">
      <label for="email">Email</label><input id="email" type="email" placeholder="you@example.test"><button type="submit">Subscribe</button><p id="thanks"></p></form>
  </section>
  <footer>© 2026 Argus · A self-hosted AI web-testing platform</footer>
  <script>
    const clock = document.getElementById('clock');
    const tick = () => { const now = new Date(); clock.textContent = now.toISOString().slice(11, 19) + '.' + String(now.getMilliseconds()).padStart(3, '0'); };
    if (clock) { tick(); setInterval(tick, 100); }
  </script>
</body></html>`;
}
