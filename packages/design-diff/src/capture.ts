import {
  DOM_FACT_PROPERTIES,
  type DomElementFacts,
  domElementFacts,
  RENDERED_LINE_HEIGHT,
} from './figma/style-compare';
import type { Box } from './regions';

/**
 * What the comparison needs of a browser session; `BrowserSession` of @argus/engine has it (tests may
 * pass a fake).
 */
export interface CaptureSession {
  navigate(
    url: string,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<{ status: number; url: string }>;
  capturePage(options?: {
    fullPage?: boolean;
    maxHeight?: number;
    settleMs?: number;
    signal?: AbortSignal;
    /** Encoded for speed rather than size (the engine's `CapturePageOptions.fast`). */
    fast?: boolean;
  }): Promise<{ data: Buffer; width: number; height: number; pageHeight: number }>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A, options?: { signal?: AbortSignal }): Promise<R>;
  close(): Promise<void>;
}

/** Stops what would make two captures of the same page differ: animations, transitions, the caret. */
export const FREEZE_CSS =
  '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}';

export interface PageCaptureResult {
  /** PNG bytes, `width` × `height` CSS pixels. */
  png: Buffer;
  width: number;
  height: number;
  /** The page's own full height (more than `height` when the capture was cut). */
  pageHeight: number;
  /** Where the page ended up, redirects followed. */
  url: string;
  status: number;
}

/** Opens `url`, freezes animations and the caret, and captures the full page once fonts and network settle. */
export async function capturePage(
  session: CaptureSession,
  url: string,
  options: { signal?: AbortSignal; maxHeight?: number; settleMs?: number } = {},
): Promise<PageCaptureResult> {
  const opened = await session.navigate(url, { signal: options.signal, timeoutMs: 30_000 });
  await session.evaluate(
    (css: string) => {
      const style = document.createElement('style');
      style.dataset.argusFreeze = '';
      style.textContent = css;
      (document.head ?? document.documentElement).append(style);
      const active = document.activeElement as HTMLElement | null;
      active?.blur?.();
      for (const media of document.querySelectorAll('video, audio')) (media as HTMLMediaElement).pause();
    },
    FREEZE_CSS,
    { signal: options.signal },
  );
  const shot = await session.capturePage({
    fullPage: true,
    maxHeight: options.maxHeight ?? 16_384,
    settleMs: options.settleMs ?? 5_000,
    signal: options.signal,
  });
  return {
    png: shot.data,
    width: shot.width,
    height: shot.height,
    pageHeight: shot.pageHeight,
    url: opened.url,
    status: opened.status,
  };
}

/** The computed style properties the fixes read. */
export const STYLE_PROPERTIES = [
  'color',
  'background-color',
  'font-size',
  'font-weight',
  'line-height',
  'margin-top',
  'margin-left',
  'padding-top',
  'padding-left',
  'position',
  'top',
  'left',
  'width',
  'height',
] as const;
export type StyleProperty = (typeof STYLE_PROPERTIES)[number];

/** The page element under a region. */
export interface ElementInfo {
  /** A stable CSS selector: its id, else its data-testid, else a tag:nth-of-type path from one. */
  selector: string;
  tag: string;
  /** Its box in page coordinates (CSS pixels from the document's top left). */
  box: Box;
  /** Its own text (not its descendants'), trimmed, at most 200 characters. */
  text: string;
  /** Whether it has children elements. */
  hasChildren: boolean;
  style: Record<StyleProperty, string>;
}

type InPageBox = { x: number; y: number; width: number; height: number };
type InPageQuery =
  | { kind: 'under-boxes'; boxes: InPageBox[]; properties: readonly string[] }
  | { kind: 'facts'; properties: readonly string[]; max: number; renderedLineHeightKey: string };

/**
 * Runs in the page (through `evaluate`, so it must not use anything outside its body): one stable
 * selector rule and one visibility rule for both readings of the page's elements.
 */
function inspectPage(query: InPageQuery): unknown {
  const sx = window.scrollX;
  const sy = window.scrollY;
  const unique = (selector: string) => {
    try {
      return document.querySelectorAll(selector).length === 1;
    } catch {
      return false;
    }
  };
  const selectorOf = (el: Element): string => {
    const parts: string[] = [];
    let current: Element | null = el;
    while (current && current !== document.documentElement) {
      if (current.id && unique(`#${CSS.escape(current.id)}`)) {
        parts.unshift(`#${CSS.escape(current.id)}`);
        break;
      }
      const testId = current.getAttribute('data-testid');
      if (testId && unique(`[data-testid="${CSS.escape(testId)}"]`)) {
        parts.unshift(`[data-testid="${CSS.escape(testId)}"]`);
        break;
      }
      const tag = current.tagName.toLowerCase();
      if (current === document.body) {
        parts.unshift('body');
        break;
      }
      const parent: Element | null = current.parentElement;
      const same = parent ? [...parent.children].filter((c) => c.tagName === current!.tagName) : [];
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(current) + 1})` : tag);
      current = parent;
    }
    return parts.join(' > ');
  };
  /** The element's box in page coordinates and its computed style, or null when it is not shown. */
  const shown = (el: Element) => {
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) return null;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return null;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.opacity === '0') return null;
    return { cs, box: { x: r.left + sx, y: r.top + sy, width: r.width, height: r.height } };
  };
  const styleOf = (cs: CSSStyleDeclaration) => {
    const style: Record<string, string> = {};
    for (const p of query.properties) style[p] = cs.getPropertyValue(p);
    return style;
  };
  const ownText = (el: Element) => {
    let text = '';
    for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    return text;
  };
  // A keyword line height (`normal`) is as tall as the element's font makes it: a one-line probe
  // inheriting the element's font and line height, measured and removed at once (no paint between),
  // once per font.
  const rendered = new Map<string, string | undefined>();
  const renderedLineHeight = (el: Element, cs: CSSStyleDeclaration): string | undefined => {
    if (/px$/.test(cs.lineHeight) || !ownText(el).trim()) return undefined;
    const font = [
      cs.fontFamily,
      cs.fontSize,
      cs.fontWeight,
      cs.fontStyle,
      cs.fontStretch,
      cs.lineHeight,
    ].join('|');
    if (rendered.has(font)) return rendered.get(font);
    const probe = document.createElement('span');
    probe.textContent = 'x';
    probe.style.cssText =
      'position:absolute;display:block;visibility:hidden;line-height:inherit;margin:0;padding:0;border:0;white-space:nowrap';
    el.appendChild(probe);
    const height = probe.getBoundingClientRect().height;
    probe.remove();
    const value = height > 0 ? `${Math.round(height * 100) / 100}px` : undefined;
    rendered.set(font, value);
    return value;
  };

  if (query.kind === 'under-boxes') {
    const candidates: { el: Element; box: InPageBox }[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const seen = shown(el);
      if (seen) candidates.push({ el, box: seen.box });
    }
    return query.boxes.map((box) => {
      let best: (typeof candidates)[number] | null = null;
      let bestScore = 0;
      for (const c of candidates) {
        const iw = Math.min(box.x + box.width, c.box.x + c.box.width) - Math.max(box.x, c.box.x);
        const ih = Math.min(box.y + box.height, c.box.y + c.box.height) - Math.max(box.y, c.box.y);
        if (iw <= 0 || ih <= 0) continue;
        const inter = iw * ih;
        const score = inter / (box.width * box.height + c.box.width * c.box.height - inter);
        if (score >= bestScore) {
          bestScore = score;
          best = c;
        }
      }
      if (!best) return null;
      return {
        selector: selectorOf(best.el),
        tag: best.el.tagName.toLowerCase(),
        box: best.box,
        text: ownText(best.el).replace(/\s+/g, ' ').trim().slice(0, 200),
        hasChildren: best.el.children.length > 0,
        style: styleOf(getComputedStyle(best.el)),
      };
    });
  }

  const out: { selector: string; text: string; box: InPageBox; style: Record<string, string> }[] = [];
  for (const el of [document.body, ...document.body.querySelectorAll('*')]) {
    if (out.length >= query.max) break;
    const seen = shown(el);
    if (!seen) continue;
    const { cs } = seen;
    const paints =
      !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(cs.backgroundColor) ||
      cs.paddingTop !== '0px' ||
      cs.paddingLeft !== '0px' ||
      /(flex|grid)$/.test(cs.display);
    if (el !== document.body && !ownText(el).trim() && !paints) continue;
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (DomElementFacts), not hidden nodes' text
    const text = ((el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 500);
    const style = styleOf(cs);
    const lineHeight = renderedLineHeight(el, cs);
    if (lineHeight) style[query.renderedLineHeightKey] = lineHeight;
    out.push({ selector: selectorOf(el), text: el === document.body ? '' : text, box: seen.box, style });
  }
  return out;
}

/**
 * For each box (page coordinates), the visible element whose box best matches it (largest
 * intersection over union; the deeper element wins a tie), or null when no element overlaps it.
 */
export function readElements(
  session: CaptureSession,
  boxes: Box[],
  signal?: AbortSignal,
): Promise<(ElementInfo | null)[]> {
  return session.evaluate(
    inspectPage,
    { kind: 'under-boxes', boxes, properties: STYLE_PROPERTIES } as InPageQuery,
    { signal },
  ) as Promise<(ElementInfo | null)[]>;
}

/** Elements read by `readDomFacts` at most (a huge page keeps its first ones, in document order). */
export const MAX_DOM_FACTS = 2000;

/**
 * The page's elements that hold text directly or paint a box (a background, padding, a flex or grid
 * gap), and `body`, with a stable selector, their box in page coordinates, their visible text and the
 * computed styles `compareStyles` checks against a Figma frame (`DOM_FACT_PROPERTIES`).
 */
export function readDomFacts(session: CaptureSession, signal?: AbortSignal): Promise<DomElementFacts[]> {
  return (
    session.evaluate(
      inspectPage,
      {
        kind: 'facts',
        properties: DOM_FACT_PROPERTIES,
        max: MAX_DOM_FACTS,
        renderedLineHeightKey: RENDERED_LINE_HEIGHT,
      } as InPageQuery,
      { signal },
    ) as Promise<{ selector: string; text: string; box: Box; style: Record<string, string> }[]>
  ).then((list) => list.map(domElementFacts));
}
