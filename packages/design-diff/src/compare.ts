import type { BrowserPool } from '@argus/engine';
import {
  type ComparisonIssue,
  type ComparisonOptions,
  ComparisonOptionsSchema,
  type ComparisonPriority,
  type ComparisonResults,
  ComparisonResultsSchema,
  type CssFix,
  DEFAULT_VIEWPORTS,
  type IssueKind,
  type Recommendation,
} from '@argus/protocol';
import { type CaptureSession, capturePage, type ElementInfo, readDomFacts, readElements } from './capture';
import { analyseRegion, estimateShift, MOVED_RESIDUAL, type RegionAnalysis, type Shift } from './classify';
import { blockColourDistance, toHex } from './color';
import { diffImages } from './diff-kernel';
import type { DomElementFacts } from './figma/style-compare';
import { cssFixes } from './fixes';
import {
  count,
  cropTop,
  decodeDesign,
  encodePng,
  ImageLimitError,
  imageWidth,
  MAX_VIEWPORT_PIXELS,
  type RgbaImage,
} from './image';
import { type Box, findRegions, priorityOf, type Region } from './regions';
import { CATEGORIES, type Category, combineScores, qualityRating, scoreViewport } from './scores';
import { ssim } from './ssim';

export type Viewports = Record<string, { width: number; height: number }>;

export interface CompareDesignOptions {
  /** The design: one image (PNG, JPEG, WebP, GIF) scaled to each viewport's width, or one per viewport name. */
  design: Buffer | Record<string, Buffer>;
  url: string;
  /** @default docs/DECISIONS.md#real-viewport-sizes: desktop 1920×1080, tablet 768×1024, mobile 390×844 (desktop only without include_responsive) */
  viewports?: Viewports;
  options?: Partial<ComparisonOptions>;
  /** Where sessions come from: a pool (`openSession({ viewport })`) or a factory. */
  pool?: Pick<BrowserPool, 'openSession'>;
  openSession?: (
    viewport: { width: number; height: number },
    signal?: AbortSignal,
  ) => Promise<CaptureSession>;
  signal?: AbortSignal;
  onProgress?: (progress: { percent: number; message: string }) => void;
  /**
   * Compare every viewport with its design even when the design was drawn for another width (a
   * desktop mock-up against the mobile page). Off, a design is compared only at the viewport(s)
   * nearest its own width, and the others say why they were not compared. @default false
   */
  compareEveryViewport?: boolean;
  /**
   * What each viewport's design was drawn as, when its image does not say (a Figma frame rendered at
   * the viewport's width): the same `id` is one design, `width` the width it was drawn at.
   * @default the image's own bytes and width
   */
  drawnAt?: Record<string, { id: string; width: number }>;
  /** Issues kept per viewport, largest first. @default 40 */
  maxIssuesPerViewport?: number;
  /**
   * Keep, per viewport, the two images as they were compared (PNG, `width` × `comparedHeight`), so a
   * screen can show them side by side with the issues' boxes. @default false
   */
  keepImages?: boolean;
  /**
   * Read, per viewport, the page's elements that hold text or paint a box with their computed styles
   * (`DomElementFacts`), for `compareStyles` against a Figma frame's node properties. @default false
   */
  readDomFacts?: boolean;
  /**
   * Pixels one viewport's images may have (its capture is cut there, the design too). A viewport
   * whose own width × height is past it is refused (ImageLimitError). @default MAX_VIEWPORT_PIXELS
   */
  maxViewportPixels?: number;
  /**
   * Pixels all compared viewports may have together: each gets its width × height and the same number
   * of rows of the rest for the page below, so a long page is cut rather than the memory run out; viewports
   * whose width × height alone add up past it are refused (ImageLimitError). @default 2 × maxViewportPixels
   */
  maxComparisonPixels?: number;
  /**
   * Runs one viewport's image work (decoding, measuring, encoding), so a server can bound how much of
   * it runs at once across comparisons; waits honour `signal`. @default runs it at once
   */
  imageWork?: <T>(run: () => Promise<T>, signal?: AbortSignal) => Promise<T>;
}

/** The most rows a full-page capture has (the browser's own cut). */
export const MAX_CAPTURE_HEIGHT = 16_384;

/**
 * How tall each viewport's capture (and design) may be so that one viewport stays within
 * `maxViewportPixels` and all of them within `maxComparisonPixels`: each is given its own width × height
 * and the same number of rows of what is left. Throws ImageLimitError when the viewports alone pass a limit.
 */
export function pixelBudget(
  viewports: Viewports,
  limits: { maxViewportPixels?: number; maxComparisonPixels?: number } = {},
): Record<string, number> {
  const perViewport = limits.maxViewportPixels ?? MAX_VIEWPORT_PIXELS;
  const perComparison = limits.maxComparisonPixels ?? 2 * perViewport;
  const names = Object.keys(viewports);
  let least = 0;
  for (const name of names) {
    const { width, height } = viewports[name];
    if (width * height > perViewport)
      throw new ImageLimitError(
        `The ${name} viewport is ${width}×${height} = ${count(width * height)} pixels; one viewport may have at most ${count(perViewport)}`,
        width * height,
        perViewport,
      );
    least += width * height;
  }
  if (least > perComparison)
    throw new ImageLimitError(
      `These ${names.length} viewports take ${count(least)} pixels together; one comparison may measure at most ${count(perComparison)}`,
      least,
      perComparison,
    );
  // What is left is shared as rows, the same number for every viewport (a page is as long at any width).
  const widths = names.reduce((sum, name) => sum + viewports[name].width, 0);
  const extraRows = widths ? Math.floor((perComparison - least) / widths) : 0;
  return Object.fromEntries(
    names.map((name) => {
      const { width, height } = viewports[name];
      const rows = Math.min(height + extraRows, Math.floor(perViewport / width), MAX_CAPTURE_HEIGHT);
      return [name, Math.max(height, rows)];
    }),
  );
}

/** One issue with what was measured for it (for tests and the benchmark). */
export interface DetailedIssue {
  viewport: string;
  region: Region;
  analysis: RegionAnalysis;
  element: ElementInfo | null;
  issue: ComparisonIssue & object;
  fixes: CssFix[];
  category: Category;
}

export interface ViewportDetail {
  name: string;
  width: number;
  designHeight: number;
  siteHeight: number;
  /** The page's own height, when its capture was cut shorter (the comparison's pixel budget). */
  pageHeight?: number;
  comparedHeight: number;
  diffPixels: number;
  ssim: number;
  colourDistance: number;
  overall: number;
  categories: Record<Category, number>;
  issues: DetailedIssue[];
  /** Milliseconds spent: capture (browser), decode, metrics, DOM reading. */
  timings: Record<'capture' | 'decode' | 'metrics' | 'dom', number>;
  /** With `keepImages`: the site's capture and the aligned design, PNG, `width` × `comparedHeight`. */
  images?: { site: Buffer; design: Buffer };
  /** With `readDomFacts`: the page's text and box elements with their computed styles. */
  domFacts?: DomElementFacts[];
}

export interface DetailedComparison {
  results: ComparisonResults;
  viewports: ViewportDetail[];
}

/** Compares a design with a live page at each viewport; the answer parses with ComparisonResultsSchema. */
export async function compareDesign(input: CompareDesignOptions): Promise<ComparisonResults> {
  return (await compareDesignDetailed(input)).results;
}

export async function compareDesignDetailed(input: CompareDesignOptions): Promise<DetailedComparison> {
  const options = ComparisonOptionsSchema.parse(input.options ?? {});
  const viewports: Viewports =
    input.viewports ??
    (options.include_responsive ? { ...DEFAULT_VIEWPORTS } : { desktop: DEFAULT_VIEWPORTS.desktop });
  const requested = Object.keys(viewports);
  if (requested.length === 0) throw new RangeError('At least one viewport is needed');
  const designOf = (name: string) => {
    const design = Buffer.isBuffer(input.design) ? input.design : input.design[name];
    if (!design) throw new RangeError(`No design for the ${name} viewport`);
    return design;
  };
  const { compared: names, skipped } = input.compareEveryViewport
    ? { compared: requested, skipped: {} }
    : await viewportsForDesigns(viewports, designOf, input.drawnAt);
  const open =
    input.openSession ??
    (input.pool
      ? (viewport: { width: number; height: number }, signal?: AbortSignal) =>
          input.pool!.openSession({ viewport, signal }) as Promise<CaptureSession>
      : null);
  if (!open) throw new TypeError('compareDesign needs a pool or an openSession factory');
  const maxViewportPixels = input.maxViewportPixels ?? MAX_VIEWPORT_PIXELS;
  // Checked before any browser or decode: a request past the limits costs nothing.
  const maxHeights = pixelBudget(Object.fromEntries(names.map((n) => [n, viewports[n]])), {
    maxViewportPixels,
    maxComparisonPixels: input.maxComparisonPixels,
  });
  const imageWork = input.imageWork ?? (<T>(run: () => Promise<T>) => run());
  const progress = input.onProgress ?? (() => {});
  progress({ percent: 5, message: `Capturing ${input.url} at ${names.length} viewport(s)` });
  let done = 0;
  // Each viewport has a share of 5..90 %: captured, measured, mapped to the page, then done.
  const share = 85 / names.length;
  const step = (name: string, fraction: number, message: string) =>
    progress({
      percent: Math.min(90, Math.round(5 + share * (done + fraction))),
      message: `${message} (${name})`,
    });
  const details = await Promise.all(
    names.map(async (name) => {
      const design = designOf(name);
      const detail = await compareViewport({
        name,
        viewport: viewports[name],
        design,
        url: input.url,
        open,
        signal: input.signal,
        maxIssues: input.maxIssuesPerViewport ?? 40,
        keepImages: input.keepImages ?? false,
        readDomFacts: input.readDomFacts ?? false,
        maxHeight: maxHeights[name],
        maxPixels: maxViewportPixels,
        imageWork,
        step: (fraction, message) => step(name, fraction, message),
      });
      done++;
      progress({
        percent: 5 + Math.round((85 * done) / names.length),
        message: `Compared the ${name} viewport`,
      });
      return detail;
    }),
  );
  progress({ percent: 95, message: 'Summarising' });
  const results = summarise(details, options, skipped);
  progress({ percent: 100, message: 'Comparison complete' });
  return { results, viewports: details };
}

async function compareViewport(args: {
  name: string;
  viewport: { width: number; height: number };
  design: Buffer;
  url: string;
  open: (viewport: { width: number; height: number }, signal?: AbortSignal) => Promise<CaptureSession>;
  signal?: AbortSignal;
  maxIssues: number;
  keepImages: boolean;
  readDomFacts: boolean;
  /** The capture's cut (CSS pixels), from the comparison's pixel budget. */
  maxHeight: number;
  maxPixels: number;
  imageWork: NonNullable<CompareDesignOptions['imageWork']>;
  step: (fraction: number, message: string) => void;
}): Promise<ViewportDetail> {
  const { viewport } = args;
  const timings = { capture: 0, decode: 0, metrics: 0, dom: 0 };
  let t = performance.now();
  const lap = (key: keyof typeof timings) => {
    const now = performance.now();
    timings[key] += now - t;
    t = now;
  };
  const session = await args.open(viewport, args.signal);
  try {
    const shot = await capturePage(session, args.url, { signal: args.signal, maxHeight: args.maxHeight });
    lap('capture');
    args.step(0.4, `Captured the page at ${viewport.width}×${viewport.height}; measuring`);
    // The decodes, measures and encodes hold their images only inside this: a server bounds how many
    // run at once. The page's elements are read after it, so a slow page holds no other comparison's turn.
    const measured = await args.imageWork(() => measureImages(args, shot, lap), args.signal);
    return await describeViewport(args, session, shot, measured, timings, lap);
  } finally {
    await session.close().catch(() => {});
  }
}

/** What one viewport's images measured: everything but the page's elements. */
interface Measured {
  width: number;
  comparedHeight: number;
  designHeight: number;
  siteHeight: number;
  diffPixels: number;
  ssim: number;
  colourDistance: number;
  foundRegions: number;
  regions: Region[];
  analyses: RegionAnalysis[];
  images?: { site: Buffer; design: Buffer };
}

/**
 * One viewport's decodes, metrics and kept images, once its page is captured: the part that holds
 * the large images, run inside `imageWork`; they are dropped when it returns.
 */
async function measureImages(
  args: Parameters<typeof compareViewport>[0],
  shot: { png: Buffer },
  lap: (key: keyof ViewportDetail['timings']) => void,
): Promise<Measured> {
  const { name, viewport } = args;
  // The browser cut the capture to the budget's height already; its header is checked all the same.
  const siteFull = (
    await decodeDesign(shot.png, {
      maxHeight: args.maxHeight,
      maxPixels: args.maxPixels,
      what: `The ${name} capture`,
    })
  ).image;
  // Only the rows the page has are decoded of the design: it is cut before it is scaled.
  const decoded = await decodeDesign(args.design, {
    width: viewport.width,
    maxHeight: siteFull.height,
    maxPixels: args.maxPixels,
  });
  const designFull = decoded.image;
  lap('decode');
  // Align: the design is scaled to the viewport's width; the overlapping height is compared.
  const width = Math.min(designFull.width, siteFull.width);
  const comparedHeight = Math.min(designFull.height, siteFull.height);
  const design = sameWidth(cropTop(designFull, comparedHeight), width);
  const site = sameWidth(cropTop(siteFull, comparedHeight), width);
  const diff = diffImages(design.data, site.data, width, comparedHeight);
  const structure = ssim(design, site);
  const colour = blockColourDistance(design, site);
  const found = findRegions(diff.mask, width, comparedHeight)
    .sort((a, b) => b.pixels - a.pixels)
    .slice(0, args.maxIssues * 2);
  const moved = mergeMoved(design, site, found).slice(0, args.maxIssues);
  const regions = moved.map((m) => m.region);
  const analyses = moved.map((m) => analyseRegion(design, site, m.region, m.shift));
  const images = args.keepImages
    ? { site: await encodePng(site), design: await encodePng(design) }
    : undefined;
  lap('metrics');
  return {
    width,
    comparedHeight,
    designHeight: decoded.fullHeight,
    siteHeight: siteFull.height,
    diffPixels: diff.count,
    ssim: structure.mean,
    colourDistance: colour.mean,
    foundRegions: found.length,
    regions,
    analyses,
    ...(images && { images }),
  };
}

/** Maps a viewport's measured regions to the page's elements and scores it. */
async function describeViewport(
  args: Parameters<typeof compareViewport>[0],
  session: CaptureSession,
  shot: { pageHeight: number },
  measured: Measured,
  timings: ViewportDetail['timings'],
  lap: (key: keyof ViewportDetail['timings']) => void,
): Promise<ViewportDetail> {
  const { name, viewport } = args;
  const { width, comparedHeight, designHeight, siteHeight, regions, analyses, images } = measured;
  args.step(0.7, `Measured ${measured.foundRegions} difference region(s); mapping them to the page`);
  // A moved element is looked for where the site shows it; anything else where the difference is.
  const lookups = regions.map((r, i) => {
    const a = analyses[i];
    return a.kind === 'shift' && a.inkSite ? a.inkSite : r;
  });
  const elements = regions.length ? await readElements(session, lookups, args.signal) : [];
  const domFacts = args.readDomFacts ? await readDomFacts(session, args.signal) : undefined;
  lap('dom');
  const issues = regions.map((region, i) =>
    describeIssue(name, viewport, region, analyses[i], elements[i] ?? null),
  );
  const area = width * comparedHeight;
  const categoryArea: Partial<Record<Category, number>> = {};
  for (const issue of issues)
    categoryArea[issue.category] =
      (categoryArea[issue.category] ?? 0) + (issue.region.width * issue.region.height) / area;
  const tallest = Math.max(designHeight, siteHeight);
  const scores = scoreViewport({
    diffRatio: measured.diffPixels / area,
    ssim: measured.ssim,
    colourDistance: measured.colourDistance,
    heightMismatch: (tallest - comparedHeight) / tallest,
    categoryArea,
  });
  return {
    name,
    width,
    designHeight,
    siteHeight,
    ...(shot.pageHeight > siteHeight && { pageHeight: shot.pageHeight }),
    comparedHeight,
    diffPixels: measured.diffPixels,
    ssim: measured.ssim,
    colourDistance: measured.colourDistance,
    overall: scores.overall,
    categories: scores.categories,
    issues: issues.sort((a, b) => a.region.y - b.region.y || a.region.x - b.region.x),
    timings,
    ...(images && { images }),
    ...(domFacts && { domFacts }),
  };
}

/**
 * A moved element leaves several regions (its old and new edges, its text lines): regions that moved
 * the same way and lie within three moves of each other are merged into one when the whole moved so too.
 */
function mergeMoved(
  design: RgbaImage,
  site: RgbaImage,
  regions: Region[],
): { region: Region; shift: Shift | null }[] {
  const list = regions.map((region) => ({ region, shift: estimateShift(design, site, region) }));
  const movedBy = (s: Shift | null) => (s && s.residual <= MOVED_RESIDUAL ? s : null);
  for (let merged = true; merged; ) {
    merged = false;
    outer: for (let i = 0; i < list.length; i++) {
      const a = movedBy(list[i].shift);
      if (!a) continue;
      for (let j = 0; j < list.length; j++) {
        const b = movedBy(list[j].shift);
        if (i === j || !b || Math.abs(a.sx - b.sx) > 1 || Math.abs(a.sy - b.sy) > 1) continue;
        const reach = 16 + 3 * Math.max(Math.abs(a.sx), Math.abs(a.sy));
        const [p, q] = [list[i].region, list[j].region];
        if (
          !(
            p.x - reach < q.x + q.width &&
            q.x - reach < p.x + p.width &&
            p.y - reach < q.y + q.height &&
            q.y - reach < p.y + p.height
          )
        )
          continue;
        const x = Math.min(p.x, q.x);
        const y = Math.min(p.y, q.y);
        const region: Region = {
          x,
          y,
          width: Math.max(p.x + p.width, q.x + q.width) - x,
          height: Math.max(p.y + p.height, q.y + q.height) - y,
          pixels: p.pixels + q.pixels,
        };
        const shift = estimateShift(design, site, region);
        // Merged only if the whole moved the same way.
        if (!movedBy(shift) || Math.abs(shift!.sx - a.sx) > 1 || Math.abs(shift!.sy - a.sy) > 1) continue;
        list[i] = { region, shift };
        list.splice(j, 1);
        merged = true;
        break outer;
      }
    }
  }
  return list.sort((a, b) => b.region.pixels - a.region.pixels);
}

/** Cuts an image to `width` columns (a capture may be a pixel wider or narrower than the design). */
function sameWidth(image: RgbaImage, width: number): RgbaImage {
  if (image.width === width) return image;
  const data = new Uint8ClampedArray(width * image.height * 4);
  for (let y = 0; y < image.height; y++)
    data.set(image.data.subarray(y * image.width * 4, (y * image.width + width) * 4), y * width * 4);
  return { data, width, height: image.height };
}

const KIND: Record<RegionAnalysis['kind'], { kind: IssueKind; category: Category }> = {
  colour: { kind: 'color', category: 'color' },
  shift: { kind: 'spacing', category: 'spacing' },
  size: { kind: 'size', category: 'layout' },
  missing: { kind: 'missing_element', category: 'content' },
  extra: { kind: 'extra_element', category: 'content' },
  text: { kind: 'content', category: 'content' },
};

function describeIssue(
  viewport: string,
  size: { width: number; height: number },
  region: Region,
  analysis: RegionAnalysis,
  element: ElementInfo | null,
): DetailedIssue {
  let { kind, category } = KIND[analysis.kind];
  const textual = !!element && element.text.length > 0;
  if (analysis.kind === 'size' && textual)
    ({ kind, category } = { kind: 'typography', category: 'typography' });
  if (analysis.kind === 'shift' && Math.hypot(analysis.dx, analysis.dy) > 48)
    ({ kind, category } = { kind: 'layout', category: 'layout' });
  const fixes = cssFixes(analysis, element);
  const where = `${Math.round(region.width)}×${Math.round(region.height)} at (${Math.round(region.x)}, ${Math.round(region.y)}) on ${viewport}`;
  const name = element ? `\`${element.selector}\`` : 'the page';
  const fixText = fixes.length ? ` Fix: ${fixes.map((f) => f.css_code).join(' ')}` : '';
  let title: string;
  let description: string;
  switch (analysis.kind) {
    case 'colour': {
      const site = analysis.colourSite ?? analysis.backgroundSite;
      const design = analysis.colourDesign ?? analysis.backgroundDesign;
      title = `Colour of ${name} differs from the design`;
      description = `${name} shows ${toHex(site)} where the design has ${toHex(design)} (ΔE00 ${analysis.colourDistance.toFixed(1)}), ${where}.`;
      break;
    }
    case 'shift': {
      const parts = [
        analysis.dy ? `${Math.abs(analysis.dy)} px ${analysis.dy < 0 ? 'lower' : 'higher'}` : '',
        analysis.dx ? `${Math.abs(analysis.dx)} px further ${analysis.dx < 0 ? 'right' : 'left'}` : '',
      ].filter(Boolean);
      title = `${name} is out of place`;
      description = `${name} sits ${parts.join(' and ')} than in the design, ${where}.`;
      break;
    }
    case 'size': {
      const a = analysis.inkDesign!;
      const b = analysis.inkSite!;
      title = textual
        ? `Text size of ${name} differs from the design`
        : `Size of ${name} differs from the design`;
      description = `${textual ? 'Its text is' : 'It is'} ${b.width}×${b.height} px on the site and ${a.width}×${a.height} px in the design, ${where}.`;
      break;
    }
    case 'missing':
      title = `Something in the design is missing on the site${element ? ` (inside ${name})` : ''}`;
      description = `The design shows content ${where} that the page does not have: add it${element ? ` in ${name}` : ''}.`;
      break;
    case 'extra':
      title = `${name} is not in the design`;
      description = `The page shows content ${where} where the design has none: remove or hide it.`;
      break;
    default:
      title = `Text of ${name} differs from the design`;
      description = `The content of ${name}${element?.text ? ` ("${element.text.slice(0, 80)}")` : ''} does not match the design's, ${where}: check the copy.`;
  }
  const priority: ComparisonPriority = priorityOf(region, size, analysis.severity);
  const location = {
    x: region.x,
    y: region.y,
    width: region.width,
    height: region.height,
    viewport,
  };
  return {
    viewport,
    region,
    analysis,
    element,
    fixes,
    category,
    issue: {
      issue: title.slice(0, 500),
      description: (description + fixText).slice(0, 5000),
      kind,
      priority,
      element: element?.selector ?? null,
      location,
    },
  };
}

const RANK: Record<ComparisonPriority, number> = { critical: 3, high: 2, medium: 1, low: 0 };

/**
 * Which viewports to compare: a design is drawn for one screen width, and scaling a 1920 px mock-up
 * down to a 390 px phone compares two different layouts (every difference a false alarm). So each
 * design is compared at the viewport(s) nearest its own width (by ratio; ties all kept, as when a
 * client sends three 1920 px viewports), and every other viewport gets a note saying why it was not.
 */
export async function viewportsForDesigns(
  viewports: Viewports,
  designOf: (name: string) => Buffer,
  drawnAt: Record<string, { id: string; width: number }> = {},
): Promise<{ compared: string[]; skipped: Record<string, string> }> {
  const names = Object.keys(viewports);
  // Designs with the same bytes (or the same drawnAt id) are one design, drawn at one width.
  const groups: { key: Buffer | string; width: number; names: string[] }[] = [];
  for (const name of names) {
    const design = designOf(name);
    const key = drawnAt[name]?.id ?? design;
    const group = groups.find((g) =>
      typeof key === 'string' || typeof g.key === 'string' ? g.key === key : g.key.equals(key),
    );
    if (group) group.names.push(name);
    else groups.push({ key, width: drawnAt[name]?.width ?? (await imageWidth(design)), names: [name] });
  }
  const compared = new Set<string>();
  const skipped: Record<string, string> = {};
  for (const group of groups) {
    const distance = (name: string) => Math.abs(Math.log(viewports[name].width / group.width));
    const best = Math.min(...group.names.map(distance));
    const homes = group.names.filter((name) => distance(name) <= best + 1e-6);
    for (const name of homes) compared.add(name);
    for (const name of group.names.filter((n) => !homes.includes(n))) {
      skipped[name] =
        `Not compared: the design is ${Math.round(group.width)} px wide, drawn for ${homes.join(' and ')} (${viewports[homes[0]].width} px), not for ${name} (${viewports[name].width} px). Give a design made for ${name} to compare it.`;
    }
  }
  return { compared: names.filter((n) => compared.has(n)), skipped };
}

function summarise(
  details: ViewportDetail[],
  options: ComparisonOptions,
  skipped: Record<string, string> = {},
): ComparisonResults {
  const combined = combineScores(details);
  const issues = details.flatMap((d) => d.issues);
  const cssFixesAll: CssFix[] = [];
  const seen = new Set<string>();
  for (const i of issues)
    for (const f of i.fixes) {
      const key = `${f.selector}\u0000${f.property}\u0000${f.recommended_value}`;
      if (!seen.has(key)) {
        seen.add(key);
        cssFixesAll.push(f);
      }
    }
  const recommendations: Recommendation[] = [];
  for (const category of CATEGORIES) {
    const own = issues.filter((i) => i.category === category);
    if (own.length === 0) continue;
    const top = own.reduce((a, b) => (RANK[b.issue.priority] > RANK[a.issue.priority] ? b : a));
    const fixes = own.flatMap((i) => i.fixes.map((f) => f.css_code));
    const gap = Math.max(0, 100 - combined.categories[category]);
    recommendations.push({
      suggestion: `Resolve ${own.length} ${category} difference${own.length === 1 ? '' : 's'}, starting with: ${top.issue.issue}`,
      priority: top.issue.priority,
      category,
      impact: `The ${category} score is ${combined.categories[category]}%; these differences are what keeps it from 100.`,
      solution: fixes.length
        ? [...new Set(fixes)].slice(0, 20).join('\n')
        : own
            .slice(0, 5)
            .map((i) => i.issue.description)
            .join('\n'),
      expected_improvement: `${category[0].toUpperCase()}${category.slice(1)} up to +${gap.toFixed(1)} points`,
    });
  }
  recommendations.sort((a, b) => RANK[b.priority] - RANK[a.priority]);
  const viewport_analysis = Object.fromEntries(
    details.map((d) => {
      const notes: string[] = [];
      if (d.designHeight !== d.siteHeight)
        notes.push(
          `The design is ${d.designHeight} px tall at ${d.width} px wide and the page ${d.siteHeight} px: the top ${d.comparedHeight} px were compared.`,
        );
      if (d.pageHeight)
        notes.push(
          `The page is ${d.pageHeight} px tall; its top ${d.siteHeight} px were captured (the comparison's pixel limit).`,
        );
      notes.push(
        `${d.issues.length} difference region${d.issues.length === 1 ? '' : 's'}; ${((100 * d.diffPixels) / (d.width * d.comparedHeight)).toFixed(2)}% of pixels differ; SSIM ${d.ssim.toFixed(4)}; mean colour distance ΔE00 ${d.colourDistance.toFixed(2)}.`,
      );
      if (d.overall < options.similarity_threshold)
        notes.push(`Below the similarity threshold of ${options.similarity_threshold}%.`);
      return [d.name, { similarity: d.overall, notes, width: d.width, height: d.siteHeight }];
    }),
  );
  Object.assign(viewport_analysis, skipped);
  return ComparisonResultsSchema.parse({
    overall_similarity: combined.overall,
    quality_rating: qualityRating(combined.overall),
    category_scores: combined.categories,
    viewport_analysis,
    specific_issues: issues.slice(0, 1000).map((i) => i.issue),
    minor_differences: issues
      .filter((i) => i.issue.priority === 'low')
      .slice(0, 1000)
      .map((i) => `${i.issue.issue} (${i.viewport})`.slice(0, 2000)),
    recommendations,
    css_fixes: cssFixesAll.slice(0, 1000),
  });
}

export type { Box };
