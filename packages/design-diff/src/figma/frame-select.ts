import { type FigmaNode, type FigmaRect, FRAME_TYPES } from './figma-types';

/** A top-level frame of the file and the page it is on. */
export interface FrameCandidate {
  frame: FigmaNode;
  page: FigmaNode;
}

export interface FrameChoice extends FrameCandidate {
  /** Why this frame, in words for the progress message. */
  reason: string;
}

export class FrameSelectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameSelectError';
  }
}

/** What a comparison auto-picks among: screens, not stray shapes. */
const AUTO_TYPES = new Set(['FRAME', 'COMPONENT', 'INSTANCE']);

function visible(node: FigmaNode): boolean {
  return node.visible !== false;
}

/**
 * Reading order on the canvas: top to bottom, then left to right (rows are frames whose tops are within
 * 50 px of each other). Nodes without a box keep the API's order, after the rest.
 */
function canvasOrder(nodes: FigmaNode[]): FigmaNode[] {
  const boxed = nodes.filter((n) => n.absoluteBoundingBox);
  const unboxed = nodes.filter((n) => !n.absoluteBoundingBox);
  const sorted = [...boxed].sort((a, b) => {
    const ab = a.absoluteBoundingBox!;
    const bb = b.absoluteBoundingBox!;
    if (Math.abs(ab.y - bb.y) > 50) return ab.y - bb.y;
    return ab.x - bb.x;
  });
  return [...sorted, ...unboxed];
}

/**
 * The file's top-level frames in page order: pages as the file lists them, and on each page its visible
 * FRAME / COMPONENT / INSTANCE children in canvas reading order. A SECTION's frames count as top-level.
 */
export function topLevelFrames(document: FigmaNode): FrameCandidate[] {
  const out: FrameCandidate[] = [];
  for (const page of document.children ?? []) {
    if (page.type !== 'CANVAS' || !visible(page)) continue;
    const frames: FigmaNode[] = [];
    for (const child of page.children ?? []) {
      if (!visible(child)) continue;
      if (AUTO_TYPES.has(child.type)) frames.push(child);
      else if (child.type === 'SECTION') {
        for (const inner of child.children ?? [])
          if (visible(inner) && AUTO_TYPES.has(inner.type)) frames.push(inner);
      }
    }
    for (const frame of canvasOrder(frames)) out.push({ frame, page });
  }
  return out;
}

/**
 * The rule when the link names no frame: the frame whose width is nearest the viewport's width; among
 * frames equally near, the first in page order (see `topLevelFrames`). A 1440 px 'Desktop' and a 390 px
 * 'Mobile' frame thus serve a 1920 px desktop capture and a 390 px mobile capture respectively.
 */
export function pickFrameForViewport(candidates: FrameCandidate[], viewportWidth: number): FrameChoice {
  let best: FrameCandidate | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const width = candidate.frame.absoluteBoundingBox?.width;
    if (!width || width <= 0) continue;
    const distance = Math.abs(width - viewportWidth);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (!best)
    throw new FrameSelectError('The Figma file has no frame to compare (no visible top-level frame)');
  const width = Math.round(best.frame.absoluteBoundingBox!.width);
  return {
    ...best,
    reason: `frame "${best.frame.name}" (${width} px wide, nearest the ${viewportWidth} px viewport) on page "${best.page.name}"`,
  };
}

function contains(outer: FigmaRect, inner: FigmaRect): boolean {
  const slack = 0.5;
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

/** Depth-first search by id. */
export function findNode(root: FigmaNode, id: string): FigmaNode | undefined {
  if (root.id === id) return root;
  for (const child of root.children ?? []) {
    const found = findNode(child, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The frame for a node the link named: the node itself when it is a frame-like node (FRAME, COMPONENT,
 * INSTANCE, …); a page (CANVAS): the frame of that page nearest the viewport width; any other node (a
 * text, a rectangle): the top-level frame whose box contains it.
 */
export function frameForLinkedNode(
  node: FigmaNode,
  candidates: FrameCandidate[],
  viewportWidth: number,
): FrameChoice {
  if (node.type === 'CANVAS') {
    const onPage = candidates.filter((c) => c.page.id === node.id);
    return pickFrameForViewport(onPage, viewportWidth);
  }
  if (node.type === 'DOCUMENT') return pickFrameForViewport(candidates, viewportWidth);
  const page = candidates.find((c) => c.frame.id === node.id)?.page;
  if (FRAME_TYPES.has(node.type)) {
    return {
      frame: node,
      page: page ?? { id: '', name: '', type: 'CANVAS' },
      reason: `frame "${node.name}" named by the link`,
    };
  }
  const box = node.absoluteBoundingBox;
  const holder = box
    ? candidates.find((c) => c.frame.absoluteBoundingBox && contains(c.frame.absoluteBoundingBox, box))
    : undefined;
  if (!holder) {
    throw new FrameSelectError(
      `The Figma link points at "${node.name}" (${node.type.toLowerCase()}), which is not inside a frame: link a frame instead`,
    );
  }
  return { ...holder, reason: `frame "${holder.frame.name}", which holds "${node.name}" named by the link` };
}
