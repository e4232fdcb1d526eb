import type { FigmaColor, FigmaNode, FigmaPaint, FigmaRect } from './figma-types';

/** A box in the chosen frame's coordinates (its top-left corner is 0,0), in design pixels. */
export interface DesignBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A colour as `#rrggbb` and its opacity (paint opacity × node opacities × colour alpha). */
export interface DesignColor {
  hex: string;
  alpha: number;
}

export interface DesignText {
  nodeId: string;
  name: string;
  characters: string;
  box: DesignBox;
  fontFamily?: string;
  fontSize?: number;
  fontWeight?: number;
  /** Absent when the line height is Figma's "auto" (the font's own), which matches CSS `normal`. */
  lineHeightPx?: number;
  /** px. */
  letterSpacing?: number;
  color?: DesignColor;
}

export interface DesignFill {
  nodeId: string;
  name: string;
  type: string;
  box: DesignBox;
  color: DesignColor;
  /** The characters of the texts inside, joined (a button's label), to match it to the page. */
  text: string;
  /** True for the chosen frame itself: its fill is the page's background. */
  isFrame: boolean;
}

export interface DesignAutoLayout {
  nodeId: string;
  name: string;
  box: DesignBox;
  direction: 'row' | 'column';
  padding: { top: number; right: number; bottom: number; left: number };
  /** Space between items along the direction; absent when items are spread (`SPACE_BETWEEN`). */
  itemSpacing?: number;
  /** Space between wrapped lines. */
  counterAxisSpacing?: number;
  wrap: boolean;
  text: string;
  isFrame: boolean;
}

/** What the design says, in the chosen frame's coordinates. */
export interface DesignFacts {
  frame: { id: string; name: string; width: number; height: number };
  texts: DesignText[];
  fills: DesignFill[];
  autoLayouts: DesignAutoLayout[];
}

const FILL_TYPES = new Set(['FRAME', 'RECTANGLE', 'COMPONENT', 'INSTANCE', 'ELLIPSE']);

function channel(value: number): string {
  return Math.round(Math.min(1, Math.max(0, value)) * 255)
    .toString(16)
    .padStart(2, '0');
}

/** Figma's 0..1 colour as `#rrggbb`. */
export function figmaColorToHex(color: Pick<FigmaColor, 'r' | 'g' | 'b'>): string {
  return `#${channel(color.r)}${channel(color.g)}${channel(color.b)}`;
}

/**
 * The colour a stack of paints shows, when it is one colour: the topmost visible paint (Figma lists
 * paints bottom first) must be SOLID; anything else on top (an image, a gradient) means no one colour.
 */
export function solidColor(paints: FigmaPaint[] | undefined, opacity = 1): DesignColor | undefined {
  const shown = (paints ?? []).filter((p) => p.visible !== false && (p.opacity ?? 1) > 0);
  const top = shown.at(-1);
  if (top?.type !== 'SOLID' || !top.color) return undefined;
  const alpha = (top.color.a ?? 1) * (top.opacity ?? 1) * opacity;
  return { hex: figmaColorToHex(top.color), alpha: Math.round(alpha * 1000) / 1000 };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function relative(box: FigmaRect, origin: FigmaRect): DesignBox {
  return {
    x: round(box.x - origin.x),
    y: round(box.y - origin.y),
    width: round(box.width),
    height: round(box.height),
  };
}

function textInside(node: FigmaNode): string {
  if (node.visible === false) return '';
  if (node.type === 'TEXT') return node.characters ?? '';
  return (node.children ?? []).map(textInside).filter(Boolean).join(' ');
}

/**
 * Flattens a frame's subtree into the facts a comparison checks: texts with their type styles, solid
 * fills of frames and shapes, and auto-layout padding and spacing. Hidden nodes (and what they hold)
 * are left out; opacity multiplies down the tree.
 */
export function extractDesignFacts(frame: FigmaNode): DesignFacts {
  const origin = frame.absoluteBoundingBox;
  if (!origin) throw new Error(`The Figma frame "${frame.name}" has no position (absoluteBoundingBox)`);
  const facts: DesignFacts = {
    frame: { id: frame.id, name: frame.name, width: round(origin.width), height: round(origin.height) },
    texts: [],
    fills: [],
    autoLayouts: [],
  };

  const visit = (node: FigmaNode, inheritedOpacity: number) => {
    if (node.visible === false) return;
    const opacity = inheritedOpacity * (node.opacity ?? 1);
    if (opacity <= 0) return;
    const isFrame = node === frame;
    const box = node.absoluteBoundingBox ? relative(node.absoluteBoundingBox, origin) : undefined;

    if (node.type === 'TEXT' && box) {
      const characters = (node.characters ?? '').trim();
      if (characters) {
        const style = node.style ?? {};
        facts.texts.push({
          nodeId: node.id,
          name: node.name,
          characters,
          box,
          fontFamily: style.fontFamily,
          fontSize: style.fontSize,
          fontWeight: style.fontWeight,
          lineHeightPx: style.lineHeightUnit === 'INTRINSIC_%' ? undefined : style.lineHeightPx,
          letterSpacing: style.letterSpacing,
          color: solidColor(node.fills, opacity),
        });
      }
      return;
    }

    if (FILL_TYPES.has(node.type) && box) {
      const color = solidColor(node.fills, opacity);
      if (color && color.alpha > 0) {
        facts.fills.push({
          nodeId: node.id,
          name: node.name,
          type: node.type,
          box,
          color,
          text: textInside(node),
          isFrame,
        });
      }
    }

    if ((node.layoutMode === 'HORIZONTAL' || node.layoutMode === 'VERTICAL') && box) {
      facts.autoLayouts.push({
        nodeId: node.id,
        name: node.name,
        box,
        direction: node.layoutMode === 'HORIZONTAL' ? 'row' : 'column',
        padding: {
          top: node.paddingTop ?? 0,
          right: node.paddingRight ?? 0,
          bottom: node.paddingBottom ?? 0,
          left: node.paddingLeft ?? 0,
        },
        itemSpacing: node.primaryAxisAlignItems === 'SPACE_BETWEEN' ? undefined : (node.itemSpacing ?? 0),
        counterAxisSpacing: node.layoutWrap === 'WRAP' ? (node.counterAxisSpacing ?? 0) : undefined,
        wrap: node.layoutWrap === 'WRAP',
        text: textInside(node),
        isFrame,
      });
    }

    for (const child of node.children ?? []) visit(child, opacity);
  };

  visit(frame, 1);
  return facts;
}
