import { MAX_INPUT_PIXELS } from '../image';
import { type DesignFacts, extractDesignFacts } from './design-nodes';
import type { FigmaClient } from './figma-client';
import { type FigmaFileRef, parseFigmaUrl } from './figma-url';
import { frameForLinkedNode, pickFrameForViewport, topLevelFrames } from './frame-select';

/** The design side of a comparison from a Figma file, for one viewport. */
export interface FigmaDesign {
  fileKey: string;
  fileName: string;
  frame: { id: string; name: string; width: number; height: number };
  /** Why this frame (for the progress message). */
  reason: string;
  /** Figma's render of the frame. */
  png: Buffer;
  /**
   * The render's scale: viewport width / frame width, within Figma's 0.01..4, and less for a frame that
   * would render past MAX_INPUT_PIXELS.
   */
  scale: number;
  facts: DesignFacts;
}

/**
 * Reads a Figma link for one viewport: the file's pages and top-level frames (`depth=2`), the frame to
 * compare (the linked node's, else the one nearest the viewport width: `frame-select.ts`), its whole
 * subtree (`/nodes`), and its render at the viewport's width (`/images`).
 * Throws `FigmaUrlError`, `FigmaError`, `FrameSelectError`, or `AbortedError` through the client's signal.
 */
export async function loadFigmaDesign(
  client: FigmaClient,
  link: string | FigmaFileRef,
  viewportWidth: number,
): Promise<FigmaDesign> {
  const ref = typeof link === 'string' ? parseFigmaUrl(link) : link;
  const file = await client.getFile(ref.fileKey, { depth: 2 });
  const candidates = topLevelFrames(file.document);
  let choice: ReturnType<typeof pickFrameForViewport>;
  if (ref.nodeId) {
    const linked = await client.getNode(ref.fileKey, ref.nodeId);
    choice = frameForLinkedNode(linked.document, candidates, viewportWidth);
  } else {
    choice = pickFrameForViewport(candidates, viewportWidth);
  }
  const frameNode =
    choice.frame.children !== undefined && ref.nodeId === choice.frame.id
      ? choice.frame
      : (await client.getNode(ref.fileKey, choice.frame.id)).document;
  const facts = extractDesignFacts(frameNode);
  const frameWidth = Math.max(1, facts.frame.width);
  const frameHeight = Math.max(1, facts.frame.height);
  // A long frame rendered at a wide viewport's scale could be billions of pixels: the render is held
  // to what the comparison may decode (it is scaled to the viewport's width, its top rows only, after).
  const scale = Math.min(
    4,
    Math.sqrt(MAX_INPUT_PIXELS / (frameWidth * frameHeight)),
    Math.max(0.01, viewportWidth / frameWidth),
  );
  const png = await client.renderImage(ref.fileKey, frameNode.id, { format: 'png', scale });
  return {
    fileKey: ref.fileKey,
    fileName: file.name,
    frame: facts.frame,
    reason: choice.reason,
    png,
    scale,
    facts,
  };
}
