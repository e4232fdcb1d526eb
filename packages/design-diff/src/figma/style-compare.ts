import type { CssFix } from '@argus/protocol';
import type {
  DesignAutoLayout,
  DesignBox,
  DesignColor,
  DesignFacts,
  DesignFill,
  DesignText,
} from './design-nodes';
import { textSimilarity } from './text-similarity';

/**
 * One element of the captured page, as the capture reads it with `getComputedStyle` (values as the
 * browser gives them: `48px`, `700`, `normal`, `rgb(17, 24, 39)`). The capture should list elements
 * that hold text directly and boxes with a background or padding, each with a selector unique on the page.
 */
export interface DomElementFacts {
  selector: string;
  /** The element's visible text (innerText), trimmed; empty for an element without text. */
  text: string;
  /** Page coordinates in CSS pixels (document, not viewport: scroll added). */
  box: { x: number; y: number; width: number; height: number };
  computed: {
    color?: string;
    backgroundColor?: string;
    fontFamily?: string;
    fontSize?: string;
    fontWeight?: string;
    lineHeight?: string;
    /**
     * The line height as rendered, in px, when `lineHeight` is a keyword (`normal`): what the font
     * makes of it, measured in the page (capture.ts), since the keyword alone says nothing of its size.
     */
    lineHeightRendered?: string;
    letterSpacing?: string;
    paddingTop?: string;
    paddingRight?: string;
    paddingBottom?: string;
    paddingLeft?: string;
    gap?: string;
    rowGap?: string;
    columnGap?: string;
    /** `flex`, `grid`, `block`, …: a gap only applies to flex and grid containers. */
    display?: string;
  };
}

export type StyleDifferenceKind = 'typography' | 'color' | 'spacing';

/** One property the site has other than the design (a CSS fix is made from each). */
export interface StyleDifference {
  kind: StyleDifferenceKind;
  selector: string;
  property: string;
  /** The design's value as CSS. */
  design: string;
  /** The page's computed value; null when it has none. */
  site: string | null;
  nodeId: string;
  nodeName: string;
  /** Where the element is on the page (CSS px). */
  location: { x: number; y: number; width: number; height: number };
}

export interface TextMatch {
  text: DesignText;
  element: DomElementFacts;
  /** 0..1. */
  score: number;
  textScore: number;
}

export interface StyleComparison {
  fixes: CssFix[];
  differences: StyleDifference[];
  textMatches: TextMatch[];
  /** Design texts no page element was close enough to (missing or reworded content). */
  unmatchedTexts: DesignText[];
}

export interface CompareOptions {
  /** The capture's width in CSS px: the design is scaled from its frame width to it to place boxes. */
  viewportWidth: number;
}

/** Tolerances: differences this small are rendering noise, not design drift. */
export const TOLERANCES = {
  fontSizePx: 0.5,
  lineHeightPx: 1,
  letterSpacingPx: 0.1,
  /** Largest channel difference (0..255) still read as the same colour. */
  colorChannel: 8,
  alpha: 0.05,
  spacingPx: 1,
} as const;

/** A text matches an element when their texts are at least this alike. */
const MIN_TEXT_SIMILARITY = 0.6;
/** A box (fill, auto layout) matches an element when they overlap at least this much (IoU). */
const MIN_BOX_OVERLAP = 0.5;

// ---------------------------------------------------------------- CSS value reading

/** `48px` → 48; `normal` and anything not in px → undefined. */
export function parsePx(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(-?\d+(?:\.\d+)?)px\s*$/.exec(value);
  if (match) return Number(match[1]);
  if (/^\s*0\s*$/.test(value)) return 0;
  return undefined;
}

function parseWeight(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'normal') return 400;
  if (text === 'bold') return 700;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** `rgb(…)`, `rgba(…)`, `rgb(r g b / a)`, `#rgb`, `#rrggbb`, `#rrggbbaa`, `transparent`; else undefined. */
export function parseCssColor(value: string | undefined): Rgba | undefined {
  if (!value) return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,8})$/.exec(text);
  if (hex) {
    let h = hex[1];
    if (h.length === 3 || h.length === 4) h = [...h].map((c) => c + c).join('');
    if (h.length !== 6 && h.length !== 8) return undefined;
    const n = (i: number) => Number.parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([^)]*)\)$/.exec(text);
  if (!fn) return undefined;
  const parts = fn[1].split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return undefined;
  const num = (p: string, scale: number) =>
    p.endsWith('%') ? (Number(p.slice(0, -1)) / 100) * scale : Number(p);
  const [r, g, b] = parts.slice(0, 3).map((p) => num(p, 255));
  const a = parts[3] === undefined ? 1 : num(parts[3], 1);
  if (![r, g, b, a].every(Number.isFinite)) return undefined;
  return { r, g, b, a };
}

function designRgba(color: DesignColor): Rgba {
  const n = (i: number) => Number.parseInt(color.hex.slice(i, i + 2), 16);
  return { r: n(1), g: n(3), b: n(5), a: color.alpha };
}

function sameColor(a: Rgba, b: Rgba): boolean {
  if (Math.abs(a.a - b.a) > TOLERANCES.alpha) return false;
  if (a.a === 0 && b.a === 0) return true;
  return Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b)) <= TOLERANCES.colorChannel;
}

/** The design colour as CSS: `#4f46e5`, or `rgba(…)` when it is see-through. */
export function cssColor(color: DesignColor): string {
  if (color.alpha >= 0.995) return color.hex;
  const { r, g, b } = designRgba(color);
  return `rgba(${r}, ${g}, ${b}, ${Math.round(color.alpha * 100) / 100})`;
}

function px(value: number): string {
  return `${Math.round(value * 100) / 100}px`;
}

function firstFamily(stack: string): string {
  return (stack.split(',')[0] ?? '').trim().replace(/^["']|["']$/g, '');
}

// ---------------------------------------------------------------- geometry

function scaleBox(box: DesignBox, scale: number): DesignBox {
  return { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale };
}

function iou(a: DesignBox, b: DesignBox): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** 0..1: overlap, and nearness of centres relative to a quarter of the page width. */
function positionScore(design: DesignBox, element: DesignBox, pageWidth: number): number {
  const dx = design.x + design.width / 2 - (element.x + element.width / 2);
  const dy = design.y + design.height / 2 - (element.y + element.height / 2);
  const near = 1 - Math.min(1, Math.hypot(dx, dy) / Math.max(1, pageWidth / 4));
  return 0.5 * iou(design, element) + 0.5 * near;
}

// ---------------------------------------------------------------- matching

/**
 * Pairs each design text with one page element: text likeness (at least 0.6) weighs 70 %, position
 * (the design box scaled from frame width to page width, then overlap and centre distance) 30 %.
 * Pairs are taken best first, each text and element once.
 */
export function matchTexts(
  design: DesignFacts,
  dom: DomElementFacts[],
  options: CompareOptions,
): TextMatch[] {
  const scale = options.viewportWidth / Math.max(1, design.frame.width);
  const pairs: TextMatch[] = [];
  for (const text of design.texts) {
    const box = scaleBox(text.box, scale);
    for (const element of dom) {
      if (!element.text.trim()) continue;
      const textScore = textSimilarity(text.characters, element.text);
      if (textScore < MIN_TEXT_SIMILARITY) continue;
      const score = 0.7 * textScore + 0.3 * positionScore(box, element.box, options.viewportWidth);
      pairs.push({ text, element, score, textScore });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const usedTexts = new Set<DesignText>();
  const usedElements = new Set<DomElementFacts>();
  const out: TextMatch[] = [];
  for (const pair of pairs) {
    if (usedTexts.has(pair.text) || usedElements.has(pair.element)) continue;
    usedTexts.add(pair.text);
    usedElements.add(pair.element);
    out.push(pair);
  }
  return design.texts.flatMap((t) => out.filter((m) => m.text === t));
}

/** The page element a design box (a fill, an auto layout) stands for: most overlap, helped by its text. */
function matchBox(
  item: { box: DesignBox; text: string; isFrame: boolean },
  dom: DomElementFacts[],
  scale: number,
): DomElementFacts | undefined {
  if (item.isFrame) return dom.find((e) => e.selector === 'body') ?? dom.find((e) => e.selector === 'html');
  const box = scaleBox(item.box, scale);
  let best: DomElementFacts | undefined;
  let bestScore = 0;
  for (const element of dom) {
    const overlap = iou(box, element.box);
    if (overlap < MIN_BOX_OVERLAP) continue;
    const score = item.text.trim() ? 0.6 * overlap + 0.4 * textSimilarity(item.text, element.text) : overlap;
    if (score > bestScore) {
      best = element;
      bestScore = score;
    }
  }
  return best;
}

// ---------------------------------------------------------------- comparison

class Collector {
  readonly differences: StyleDifference[] = [];
  private readonly seen = new Set<string>();

  add(
    kind: StyleDifferenceKind,
    element: DomElementFacts,
    node: { nodeId: string; name: string },
    property: string,
    design: string,
    site: string | undefined,
  ) {
    const key = `${element.selector}\u0000${property}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.differences.push({
      kind,
      selector: element.selector,
      property,
      design,
      site: site?.trim() || null,
      nodeId: node.nodeId,
      nodeName: node.name,
      location: { ...element.box },
    });
  }
}

function compareText(text: DesignText, element: DomElementFacts, out: Collector) {
  const c = element.computed;
  const node = { nodeId: text.nodeId, name: text.name };
  if (text.fontSize !== undefined) {
    const site = parsePx(c.fontSize);
    if (site === undefined || Math.abs(site - text.fontSize) > TOLERANCES.fontSizePx) {
      if (c.fontSize !== undefined)
        out.add('typography', element, node, 'font-size', px(text.fontSize), c.fontSize);
    }
  }
  if (text.fontWeight !== undefined && c.fontWeight !== undefined) {
    const site = parseWeight(c.fontWeight);
    if (site !== text.fontWeight) {
      out.add('typography', element, node, 'font-weight', String(text.fontWeight), c.fontWeight);
    }
  }
  if (text.lineHeightPx !== undefined && c.lineHeight !== undefined) {
    // What renders is compared, not the keyword: `normal` is as tall as the font makes it, which is
    // what a design's own px value often is. A keyword whose size is unknown proposes nothing.
    const site = parsePx(c.lineHeight) ?? parsePx(c.lineHeightRendered);
    if (site !== undefined && Math.abs(site - text.lineHeightPx) > TOLERANCES.lineHeightPx) {
      out.add('typography', element, node, 'line-height', px(text.lineHeightPx), c.lineHeight);
    }
  }
  if (text.letterSpacing !== undefined && c.letterSpacing !== undefined) {
    const site = c.letterSpacing.trim() === 'normal' ? 0 : parsePx(c.letterSpacing);
    if (site === undefined || Math.abs(site - text.letterSpacing) > TOLERANCES.letterSpacingPx) {
      out.add('typography', element, node, 'letter-spacing', px(text.letterSpacing), c.letterSpacing);
    }
  }
  if (text.fontFamily && c.fontFamily) {
    const site = firstFamily(c.fontFamily);
    if (site && site.toLowerCase() !== text.fontFamily.toLowerCase()) {
      const rest = c.fontFamily.split(',').slice(1).join(',').trim();
      out.add(
        'typography',
        element,
        node,
        'font-family',
        `"${text.fontFamily}", ${rest || 'sans-serif'}`,
        c.fontFamily,
      );
    }
  }
  if (text.color && c.color !== undefined) {
    const site = parseCssColor(c.color);
    if (site && !sameColor(site, designRgba(text.color))) {
      out.add('color', element, node, 'color', cssColor(text.color), c.color);
    }
  }
}

function compareFill(fill: DesignFill, element: DomElementFacts, out: Collector) {
  const value = element.computed.backgroundColor;
  if (value === undefined) return;
  const site = parseCssColor(value);
  if (!site) return;
  const design = designRgba(fill.color);
  // The page's own background: a transparent body shows the browser's white canvas.
  const shown = fill.isFrame && site.a === 0 ? { r: 255, g: 255, b: 255, a: 1 } : site;
  if (sameColor(shown, design)) return;
  out.add(
    'color',
    element,
    { nodeId: fill.nodeId, name: fill.name },
    'background-color',
    cssColor(fill.color),
    value,
  );
}

function compareAutoLayout(layout: DesignAutoLayout, element: DomElementFacts, out: Collector) {
  const c = element.computed;
  const node = { nodeId: layout.nodeId, name: layout.name };
  const sides = ['top', 'right', 'bottom', 'left'] as const;
  const keys = {
    top: 'paddingTop',
    right: 'paddingRight',
    bottom: 'paddingBottom',
    left: 'paddingLeft',
  } as const;
  const site = sides.map((side) => parsePx(c[keys[side]]));
  if (site.every((v) => v !== undefined)) {
    const wrong = sides.filter((side, i) => Math.abs(site[i]! - layout.padding[side]) > TOLERANCES.spacingPx);
    if (wrong.length === 1) {
      const side = wrong[0];
      out.add('spacing', element, node, `padding-${side}`, px(layout.padding[side]), c[keys[side]]);
    } else if (wrong.length > 1) {
      const p = layout.padding;
      out.add(
        'spacing',
        element,
        node,
        'padding',
        paddingShorthand([p.top, p.right, p.bottom, p.left]),
        site.map((v) => px(v!)).join(' '),
      );
    }
  }
  const display = c.display?.trim().toLowerCase();
  const gapApplies = display === undefined || /(^|-)(flex|grid)$/.test(display);
  if (!gapApplies) return;
  const mainProperty = layout.direction === 'row' ? 'column-gap' : 'row-gap';
  const crossProperty = layout.direction === 'row' ? 'row-gap' : 'column-gap';
  const read = (property: string) => {
    const raw = property === 'column-gap' ? (c.columnGap ?? c.gap) : (c.rowGap ?? c.gap);
    if (raw === undefined) return undefined;
    return { raw, value: raw.trim() === 'normal' ? 0 : parsePx(raw.split(/\s+/)[0]) };
  };
  const main = read(mainProperty);
  const cross = layout.wrap ? read(crossProperty) : undefined;
  const mainWrong =
    layout.itemSpacing !== undefined &&
    main &&
    (main.value === undefined || Math.abs(main.value - layout.itemSpacing) > TOLERANCES.spacingPx);
  const crossWrong =
    layout.counterAxisSpacing !== undefined &&
    cross &&
    (cross.value === undefined || Math.abs(cross.value - layout.counterAxisSpacing) > TOLERANCES.spacingPx);
  if (mainWrong && !layout.wrap) {
    // Without wrapping only one axis has gaps: `gap` is the simplest fix.
    out.add('spacing', element, node, 'gap', px(layout.itemSpacing!), main!.raw);
    return;
  }
  if (mainWrong) out.add('spacing', element, node, mainProperty, px(layout.itemSpacing!), main!.raw);
  if (crossWrong)
    out.add('spacing', element, node, crossProperty, px(layout.counterAxisSpacing!), cross!.raw);
}

/** `12px 24px` for 12/24/12/24, and the other CSS shorthand forms. */
export function paddingShorthand([top, right, bottom, left]: number[]): string {
  if (top === bottom && right === left) return top === right ? px(top) : `${px(top)} ${px(right)}`;
  if (right === left) return `${px(top)} ${px(right)} ${px(bottom)}`;
  return `${px(top)} ${px(right)} ${px(bottom)} ${px(left)}`;
}

/** A fix ready to paste: `.hero h1 { font-size: 48px; }`. */
export function toCssFix(difference: StyleDifference): CssFix {
  return {
    selector: difference.selector,
    property: difference.property,
    current_value: difference.site,
    recommended_value: difference.design,
    css_code: `${difference.selector} { ${difference.property}: ${difference.design}; }`,
  };
}

/**
 * Compares a Figma frame's facts with the captured page's computed styles: texts matched by text and
 * position get font size, weight, line height, letter spacing, family and colour checked; solid fills the
 * background colour of the element under them; auto layouts padding and gap. Each difference beyond
 * `TOLERANCES` becomes a CSS fix with the design's value. Design values are CSS pixels as they are: a
 * 1440 px frame's 48 px heading is 48 px on any page width (only positions are scaled, to match).
 */
export function compareStyles(
  design: DesignFacts,
  dom: DomElementFacts[],
  options: CompareOptions,
): StyleComparison {
  const scale = options.viewportWidth / Math.max(1, design.frame.width);
  const out = new Collector();
  const textMatches = matchTexts(design, dom, options);
  for (const match of textMatches) compareText(match.text, match.element, out);

  const boxMatches = new Map<string, DomElementFacts | undefined>();
  const matchOnce = (item: { nodeId: string; box: DesignBox; text: string; isFrame: boolean }) => {
    if (!boxMatches.has(item.nodeId)) boxMatches.set(item.nodeId, matchBox(item, dom, scale));
    return boxMatches.get(item.nodeId);
  };
  for (const fill of design.fills) {
    const element = matchOnce(fill);
    if (element) compareFill(fill, element, out);
  }
  for (const layout of design.autoLayouts) {
    const element = matchOnce(layout);
    if (element) compareAutoLayout(layout, element, out);
  }
  const matched = new Set(textMatches.map((m) => m.text));
  return {
    fixes: out.differences.map(toCssFix),
    differences: out.differences,
    textMatches,
    unmatchedTexts: design.texts.filter((t) => !matched.has(t)),
  };
}

/**
 * The computed style properties `DomElementFacts` reads, in CSS (kebab-case) spelling: what a capture
 * should ask `getComputedStyle` for on each element holding text or a box.
 */
export const DOM_FACT_PROPERTIES = [
  'color',
  'background-color',
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'letter-spacing',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'gap',
  'row-gap',
  'column-gap',
  'display',
] as const;

/**
 * The key under which a capture's style record holds the rendered line height (in px) of an element
 * whose `line-height` is a keyword; not a CSS property.
 */
export const RENDERED_LINE_HEIGHT = 'line-height-rendered';

/** Builds `DomElementFacts` from a capture's kebab-case computed-style record (missing properties stay unknown). */
export function domElementFacts(element: {
  selector: string;
  text: string;
  box: { x: number; y: number; width: number; height: number };
  style: Partial<Record<string, string>>;
}): DomElementFacts {
  const s = element.style;
  return {
    selector: element.selector,
    text: element.text,
    box: element.box,
    computed: {
      color: s.color,
      backgroundColor: s['background-color'],
      fontFamily: s['font-family'],
      fontSize: s['font-size'],
      fontWeight: s['font-weight'],
      lineHeight: s['line-height'],
      lineHeightRendered: s[RENDERED_LINE_HEIGHT],
      letterSpacing: s['letter-spacing'],
      paddingTop: s['padding-top'],
      paddingRight: s['padding-right'],
      paddingBottom: s['padding-bottom'],
      paddingLeft: s['padding-left'],
      gap: s.gap,
      rowGap: s['row-gap'],
      columnGap: s['column-gap'],
      display: s.display,
    },
  };
}
