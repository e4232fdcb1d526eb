import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import { ComparisonResultsSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingPage, PLANTED, VARIANTS, type Variant } from '../../../fixtures/design/landing';
import { capturePage, readDomFacts } from './capture';
import { compareDesignDetailed } from './compare';
import { extractDesignFacts } from './figma/design-nodes';
import type { FigmaNode } from './figma/figma-types';
import { compareStyles, type DomElementFacts, parseCssColor, parsePx } from './figma/style-compare';
import { type Box, intersection } from './regions';

/**
 * Accuracy on planted differences: the fixture landing page's own capture is the design; the clean
 * page must score ≥ 98 with no High issue, and each variant's one planted change must be found where
 * it is (an issue box overlapping the changed element), with the right CSS fix for colour and size.
 */

/** The kind of difference each planted change should be read as. */
const KIND: Record<keyof typeof PLANTED, string> = {
  colour: 'colour',
  'font-size': 'size',
  moved: 'shift',
  removed: 'missing',
  text: 'text',
};

const DESKTOP = { desktop: { width: 1920, height: 1080 } };

let server: Server;
let site: string;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });

beforeAll(async () => {
  server = createServer((req, res) => {
    const variant = (new URL(req.url ?? '/', 'http://x').searchParams.get('v') ?? 'clean') as Variant;
    if (!VARIANTS.includes(variant)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(landingPage(variant));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** The design (the clean page's capture) and where the planted elements are, in page coordinates. */
async function captureDesign(): Promise<{ png: Buffer; boxes: Record<string, Box | null> }> {
  const session = await pool.openSession({ viewport: DESKTOP.desktop });
  try {
    const shot = await capturePage(session, `${site}?v=clean`, { settleMs: 1_000 });
    const boxes = await boxesOf(session, `${site}?v=clean`, false);
    return { png: shot.png, boxes };
  } finally {
    await session.close();
  }
}

async function boxesOf(
  session: Awaited<ReturnType<BrowserPool['openSession']>>,
  url: string,
  navigate = true,
): Promise<Record<string, Box | null>> {
  if (navigate) await session.navigate(url);
  return session.evaluate(
    (selectors: string[]) =>
      Object.fromEntries(
        selectors.map((s) => {
          const el = document.querySelector(s);
          if (!el) return [s, null];
          const r = el.getBoundingClientRect();
          return [s, { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }];
        }),
      ),
    Object.values(PLANTED).map((p) => p.selector),
  );
}

describe('design comparison accuracy on planted differences', () => {
  it('scores the page against its own capture ≥ 98, and finds each planted change at its place', async () => {
    const design = await captureDesign();

    const clean = await compareDesignDetailed({
      design: design.png,
      url: `${site}?v=clean`,
      viewports: DESKTOP,
      pool,
    });
    expect(ComparisonResultsSchema.safeParse(clean.results).success).toBe(true);
    expect(clean.results.overall_similarity).toBeGreaterThanOrEqual(98);
    expect(clean.results.quality_rating).toBe('Excellent');
    expect(
      clean.results.specific_issues.filter((i) => typeof i === 'object' && i.priority === 'high'),
    ).toEqual([]);

    let found = 0;
    let reported = 0;
    let falseIssues = clean.viewports[0].issues.length;
    // A fix on the clean page, or on another element than the planted one, is a false fix.
    let fixes = clean.results.css_fixes.length;
    let falseFixes = clean.results.css_fixes.length;
    const lines: string[] = [
      `clean: ${clean.results.overall_similarity}%, ${falseIssues} issue(s), fixes ${clean.results.css_fixes.map((f) => f.css_code).join(' ') || 'none'}`,
    ];
    for (const [variant, planted] of Object.entries(PLANTED) as [
      keyof typeof PLANTED,
      (typeof PLANTED)[keyof typeof PLANTED],
    ][]) {
      const url = `${site}?v=${variant}`;
      const detail = await compareDesignDetailed({ design: design.png, url, viewports: DESKTOP, pool });
      expect(ComparisonResultsSchema.safeParse(detail.results).success).toBe(true);
      const session = await pool.openSession({ viewport: DESKTOP.desktop });
      const onSite = await boxesOf(session, url).finally(() => session.close());
      const places = [design.boxes[planted.selector], onSite[planted.selector]].filter((b): b is Box => !!b);
      const issues = detail.viewports[0].issues;
      if (process.env.DEBUG_DESIGN_DIFF)
        console.log(
          variant,
          JSON.stringify(issues.map((i) => [i.region, i.analysis.kind, i.analysis.dx, i.analysis.dy])),
        );
      const hits = issues.filter((i) => places.some((p) => intersection(i.region, p) > 0));
      reported += issues.length;
      falseIssues += issues.length - hits.length;
      const wrongFixes = detail.results.css_fixes.filter((f) => f.selector !== planted.selector);
      fixes += detail.results.css_fixes.length;
      falseFixes += wrongFixes.length;
      if (hits.length > 0) found++;
      lines.push(
        `${variant}: ${detail.results.overall_similarity}% ${detail.results.quality_rating}; ${hits.length ? 'found' : 'MISSED'} ` +
          `(${hits.map((h) => `${h.analysis.kind} ${h.issue.priority} ${h.element?.selector ?? '-'}`).join(', ')}); ` +
          `${issues.length - hits.length} false; fixes ${detail.results.css_fixes.map((f) => f.css_code).join(' ') || 'none'}`,
      );
      expect(hits.length, `${variant}: ${planted.change}`).toBeGreaterThan(0);
      expect(detail.results.overall_similarity).toBeLessThan(100);
      expect(hits.map((h) => h.analysis.kind)).toContain(KIND[variant]);
      if (variant === 'moved')
        expect(detail.results.css_fixes).toContainEqual(
          expect.objectContaining({
            selector: '[data-testid="feature-card"]',
            property: 'top',
            recommended_value: '0px',
          }),
        );
      if (variant === 'colour')
        expect(detail.results.css_fixes).toContainEqual(
          expect.objectContaining({
            selector: '#cta',
            property: 'background-color',
            recommended_value: '#2563eb',
          }),
        );
      if (variant === 'font-size')
        expect(detail.results.css_fixes).toContainEqual(
          expect.objectContaining({
            selector: '#headline',
            property: 'font-size',
            recommended_value: '40px',
          }),
        );
    }
    lines.push(
      `planted changes found: ${found} / ${Object.keys(PLANTED).length}; issues reported: ${reported}; false: ${falseIssues}; ` +
        `CSS fixes proposed: ${fixes}; false fixes: ${falseFixes}`,
    );
    console.log(`design-diff accuracy\n  ${lines.join('\n  ')}`);
    expect(found).toBe(Object.keys(PLANTED).length);
    expect(falseFixes, 'fixes proposed for elements nobody changed').toBe(0);
  });
});

/** The page's DOM facts, as `capture.ts` reads them for a Figma comparison. */
async function domFactsOf(variant: Variant): Promise<DomElementFacts[]> {
  const session = await pool.openSession({ viewport: DESKTOP.desktop });
  try {
    await session.navigate(`${site}?v=${variant}`);
    return await readDomFacts(session);
  } finally {
    await session.close();
  }
}

/**
 * The clean page described as a Figma frame would describe it: a text node per element holding text
 * (fonts as Figma names them, line heights 'Auto' as Figma writes an auto line height, or in pixels as
 * a designer who typed the rendered value would), a rectangle per solid background.
 */
function figmaFrameOf(facts: DomElementFacts[], lineHeights: 'auto' | 'pixels'): FigmaNode {
  const channel = (n: number) => n / 255;
  const fill = (css: string | undefined) => {
    const colour = parseCssColor(css);
    if (!colour || colour.a === 0) return undefined;
    return {
      type: 'SOLID',
      color: { r: channel(colour.r), g: channel(colour.g), b: channel(colour.b), a: colour.a },
    };
  };
  const box = (f: DomElementFacts) => ({ ...f.box });
  const isLeaf = (f: DomElementFacts) =>
    !facts.some((o) => o !== f && o.text && o.selector.startsWith(`${f.selector} > `));
  const children: FigmaNode[] = [];
  for (const [i, f] of facts.entries()) {
    const background = f.selector === 'body' ? undefined : fill(f.computed.backgroundColor);
    if (background)
      children.push({
        id: `9:${i}`,
        name: f.selector,
        type: 'RECTANGLE',
        absoluteBoundingBox: box(f),
        fills: [background],
      });
    if (!f.text || !isLeaf(f)) continue;
    const c = f.computed;
    const rendered = parsePx(c.lineHeight) ?? parsePx(c.lineHeightRendered);
    const auto = lineHeights === 'auto' && parsePx(c.lineHeight) === undefined;
    children.push({
      id: `8:${i}`,
      name: f.selector,
      type: 'TEXT',
      characters: f.text,
      absoluteBoundingBox: box(f),
      fills: [fill(c.color)!],
      style: {
        fontFamily: (c.fontFamily ?? '').split(',')[0].replaceAll('"', '').trim(),
        fontSize: parsePx(c.fontSize),
        fontWeight: Number(c.fontWeight),
        letterSpacing: 0,
        lineHeightPx: rendered,
        lineHeightUnit: auto ? 'INTRINSIC_%' : 'PIXELS',
      },
    });
  }
  const body = facts.find((f) => f.selector === 'body')!;
  return {
    id: '1:1',
    name: 'Desktop',
    type: 'FRAME',
    absoluteBoundingBox: { x: 0, y: 0, width: 1920, height: body.box.height },
    fills: [fill(body.computed.backgroundColor) ?? fill('rgb(255, 255, 255)')!],
    children,
  };
}

describe('design comparison accuracy from a Figma frame (texts in line-height: normal)', () => {
  it.each(['auto', 'pixels'] as const)(
    'line heights %s: the clean page gets no fix, the planted colour change exactly its own',
    async (lineHeights) => {
      const clean = await domFactsOf('clean');
      // The fixture's header, button, card title and footer are in `line-height: normal`.
      expect(clean.filter((f) => f.computed.lineHeight === 'normal' && f.text).length).toBeGreaterThan(3);
      const design = extractDesignFacts(figmaFrameOf(clean, lineHeights));
      const fixesFor = (dom: DomElementFacts[]) =>
        compareStyles(design, dom, { viewportWidth: 1920 }).fixes.map((f) => f.css_code);
      const onClean = fixesFor(clean);
      const onColour = fixesFor(await domFactsOf('colour'));
      console.log(
        `design-diff accuracy, Figma (${lineHeights} line heights): clean ${onClean.length} fix(es); colour: ${onColour.join(' ') || 'none'}`,
      );
      expect(onClean).toEqual([]);
      expect(onColour).toEqual(['#cta { background-color: #2563eb; }']);
    },
  );

  it('precision over every planted change: fixes only where something was changed', async () => {
    const clean = await domFactsOf('clean');
    const design = extractDesignFacts(figmaFrameOf(clean, 'auto'));
    let proposed = 0;
    let falseFixes = 0;
    const lines: string[] = [];
    const found: string[] = [];
    for (const [variant, planted] of Object.entries(PLANTED)) {
      const fixes = compareStyles(design, await domFactsOf(variant as Variant), {
        viewportWidth: 1920,
      }).fixes;
      const wrong = fixes.filter((f) => f.selector !== planted.selector);
      proposed += fixes.length;
      falseFixes += wrong.length;
      if (fixes.length > wrong.length) found.push(variant);
      lines.push(`${variant}: ${fixes.map((f) => f.css_code).join(' ') || 'none'}`);
    }
    console.log(
      `design-diff accuracy, Figma (auto line heights), every planted change\n  ${lines.join('\n  ')}\n  ` +
        `changes given their fix: ${found.length} / ${Object.keys(PLANTED).length} (${found.join(', ')}); ` +
        `fixes proposed: ${proposed}; false fixes: ${falseFixes}`,
    );
    // A style comparison fixes styles: a changed colour and a changed size; the others are the
    // screenshot comparison's (above).
    expect(found).toEqual(expect.arrayContaining(['colour', 'font-size']));
    expect(falseFixes, 'fixes proposed for elements nobody changed').toBe(0);
  });
});
