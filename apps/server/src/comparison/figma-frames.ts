import {
  type CompareDesignOptions,
  compareStyles,
  type DesignFacts,
  type DetailedComparison,
  FigmaClient,
  FigmaError,
  FrameSelectError,
  loadFigmaDesign,
  type StyleDifference,
  type Viewports,
} from '@argus/design-diff';
import type { ComparisonIssue, CssFix } from '@argus/protocol';
import type { ComparisonDeps, Progress } from './comparison-deps';
import { Refusal, type Source } from './request-checks';

/** Each viewport's Figma frame facts (its node styles and texts), to compare with the page's. */
export type FigmaFacts = Map<string, { facts: DesignFacts; frameWidth: number }>;

/** The design a comparison measures against, and what its Figma frames say beyond their pixels. */
export interface DesignFrames {
  design: CompareDesignOptions['design'];
  figmaFacts: FigmaFacts;
  /** A Figma frame is rendered at each viewport's width; which frame it was says what it was drawn for. */
  drawnAt: Record<string, { id: string; width: number }>;
  /** Viewports whose Figma frame could not be rendered, with why. */
  unrendered: Record<string, string>;
}

/**
 * Each viewport's frame of the Figma file (the linked one, or the nearest in width), rendered at the
 * viewport's width. A frame Figma cannot render costs that viewport only; with none left the comparison
 * is refused. `waiting` says a rate-limit wait without moving the progress.
 */
export async function fetchFigmaFrames(
  deps: Pick<ComparisonDeps, 'config' | 'fetch'>,
  source: Extract<Source, { type: 'figma' }>,
  viewports: Viewports,
  signal: AbortSignal,
  progress: Progress,
  waiting: (message: string) => void,
): Promise<DesignFrames> {
  const figmaFacts: FigmaFacts = new Map();
  const drawnAt: DesignFrames['drawnAt'] = {};
  const unrendered: DesignFrames['unrendered'] = {};
  progress(3, 'Fetching the design from Figma');
  const client = new FigmaClient({
    token: source.token,
    apiBase: deps.config.figmaApiBase,
    signal,
    fetch: deps.fetch,
    onRateLimited: ({ retryAfterSeconds }) =>
      waiting(`Figma asked to wait ${Math.ceil(retryAfterSeconds)} s before the next request; waiting`),
  });
  const perViewport: Record<string, Buffer> = {};
  const names = Object.keys(viewports);
  for (const [i, name] of names.entries()) {
    let loaded: Awaited<ReturnType<typeof loadFigmaDesign>>;
    try {
      loaded = await loadFigmaDesign(
        client,
        { fileKey: source.fileKey, ...(source.nodeId && { nodeId: source.nodeId }) },
        viewports[name].width,
      );
    } catch (error) {
      // A frame Figma cannot render (empty, hidden) costs that viewport, not the comparison;
      // access, rate and network errors concern every viewport and end it.
      if (!frameOnlyError(error) || signal.aborted) throw error;
      const why = (error as Error).message;
      unrendered[name] = `Not compared: ${why}.`;
      progress(3 + (7 * (i + 1)) / names.length, `Skipped the ${name} viewport: ${why}`);
      continue;
    }
    perViewport[name] = loaded.png;
    drawnAt[name] = { id: loaded.frame.id, width: loaded.frame.width };
    figmaFacts.set(name, { facts: loaded.facts, frameWidth: loaded.frame.width });
    progress(
      3 + (7 * (i + 1)) / names.length,
      `Fetched the Figma frame "${loaded.frame.name}" of "${loaded.fileName}" for ${name} (${loaded.reason})`,
    );
  }
  if (Object.keys(perViewport).length === 0) {
    throw new Refusal(`No frame of the Figma file could be compared: ${Object.values(unrendered).join(' ')}`);
  }
  return { design: perViewport, figmaFacts, drawnAt, unrendered };
}

/**
 * The measured issues and CSS fixes with each Figma frame's style differences from the page added
 * (fixes deduplicated by selector and property), and the design's texts no element of the page reads.
 */
export function mergeFigmaStyles(
  detailed: DetailedComparison,
  figmaFacts: FigmaFacts,
): { issues: ComparisonIssue[]; fixes: CssFix[] } {
  const { results } = detailed;
  const issues: ComparisonIssue[] = [...results.specific_issues];
  const fixes: CssFix[] = [...results.css_fixes];
  const seenFix = new Set(fixes.map((f) => `${f.selector}\u0000${f.property}`));
  for (const viewport of detailed.viewports) {
    const figma = figmaFacts.get(viewport.name);
    if (!figma || !viewport.domFacts) continue;
    const styles = compareStyles(figma.facts, viewport.domFacts, { viewportWidth: viewport.width });
    for (const [i, difference] of styles.differences.entries()) {
      issues.push(styleIssue(difference, viewport.name));
      const fix = styles.fixes[i];
      const key = `${fix.selector}\u0000${fix.property}`;
      if (!seenFix.has(key)) {
        seenFix.add(key);
        fixes.push(fix);
      }
    }
    for (const text of styles.unmatchedTexts.slice(0, 20)) {
      issues.push({
        issue: `Text of the design not found on the page: "${text.characters.slice(0, 80)}"`,
        description: `The Figma layer "${text.name}" reads "${text.characters.slice(0, 300)}", and no element of the page (${viewport.name}) reads close to it: it is missing or worded differently.`,
        kind: 'content',
        priority: 'medium',
        element: null,
        location: null,
      });
    }
  }
  return { issues, fixes };
}

/** A Figma style difference as an issue of the list, beside the pixel comparison's. */
function styleIssue(difference: StyleDifference, viewport: string): ComparisonIssue {
  const what =
    difference.kind === 'typography' ? 'Typography' : difference.kind === 'color' ? 'Colour' : 'Spacing';
  return {
    issue: `${what} of \`${difference.selector}\` differs from Figma: ${difference.property}`.slice(0, 500),
    description:
      `The Figma layer "${difference.nodeName}" has ${difference.property}: ${difference.design}; the page (${viewport}) has ` +
      `${difference.site ?? 'none'}. Fix: ${difference.selector} { ${difference.property}: ${difference.design}; }`,
    kind: difference.kind,
    priority: difference.kind === 'spacing' ? 'low' : 'medium',
    element: difference.selector,
    location: {
      x: Math.max(0, difference.location.x),
      y: Math.max(0, difference.location.y),
      width: Math.max(0, difference.location.width),
      height: Math.max(0, difference.location.height),
      viewport,
    },
  };
}

/** A Figma failure that concerns one frame (it could not be chosen or rendered), not the file. */
function frameOnlyError(error: unknown): boolean {
  if (error instanceof FrameSelectError) return true;
  return error instanceof FigmaError && /could not render/.test(error.message);
}
