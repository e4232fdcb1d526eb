import { z } from 'zod';
import { type ModelClient, newMeter } from './model-client';

/** One compared viewport's two images, as the person comparing them would see them side by side. */
export interface ReviewViewport {
  name: string;
  width: number;
  height: number;
  /** The website as captured (PNG or JPEG; the AI SDK sends it with the type its bytes say). */
  site: Buffer;
  /** The design as it was compared: scaled to the viewport's width, cropped to the compared height. */
  design: Buffer;
}

/** What the measured comparison already found, so the model adds to it instead of repeating it. */
export interface MeasuredSummary {
  overall_similarity: number;
  /** Titles of the measured issues. */
  issues: string[];
  /** How many CSS fixes the measured comparison already proposes. */
  css_fixes: number;
}

export interface DesignReviewRequest {
  client: ModelClient;
  /** Desktop-most first: only the first one's images are sent (two images keep tokens bounded). */
  viewports: ReviewViewport[];
  measured: MeasuredSummary;
  signal?: AbortSignal;
}

export const REVIEW_CATEGORIES = ['layout', 'color', 'typography', 'spacing', 'content'] as const;

/** One recommendation, in the shape of the comparison results' recommendations. */
export interface ReviewRecommendation {
  suggestion: string;
  priority: 'high' | 'medium' | 'low';
  category: (typeof REVIEW_CATEGORIES)[number];
  impact: string;
  solution: string;
}

export interface DesignReview {
  recommendations: ReviewRecommendation[];
  /** The engine that reviewed, e.g. 'LLM (anthropic · claude-sonnet-4-5)'. */
  engine: string;
  usage: { calls: number; inputTokens: number; outputTokens: number; costUsd: number };
}

/**
 * The model's answer. No length limits in the schema: providers' strict JSON modes refuse some
 * keywords (maxItems, maxLength), so the answer is trimmed after it is checked instead.
 */
export const DesignReviewSchema = z.object({
  recommendations: z.array(
    z.object({
      suggestion: z.string().min(1),
      priority: z.enum(['high', 'medium', 'low']),
      category: z.enum(REVIEW_CATEGORIES),
      impact: z.string(),
      solution: z.string(),
    }),
  ),
});

/** At most this many recommendations are kept: a review adds a few points, not a second report. */
export const MAX_REVIEW_RECOMMENDATIONS = 8;
/** The measured issue titles quoted to the model; more would only cost tokens. */
const MAX_QUOTED_ISSUES = 40;

export const DESIGN_REVIEW_SYSTEM = `You review a website against its design, as a careful designer would.
You get two images of the same viewport: first the DESIGN (what was intended), then the WEBSITE (what was built).
A measuring tool already compared them pixel by pixel; its findings are listed. Your job is what a person
notices that those findings do not already say: a missing or extra element, a different hierarchy or
alignment, wrong colours or fonts in a region, content that reads differently, spacing that feels off.
Rules:
- At most ${MAX_REVIEW_RECOMMENDATIONS} recommendations, most important first; none is fine when nothing more is visible.
- Only what you can see in the images; never guess at code you cannot see.
- Do not repeat a measured finding in other words.
- suggestion: one sentence naming the element and the difference (e.g. "The hero button is outlined on the site but filled in the design").
- category: layout, color, typography, spacing or content.
- priority: high when a user would notice at once, medium when on a closer look, low when minor.
- impact: what the difference does to the page for its users, one sentence.
- solution: what to change on the website to match the design, concretely (CSS where it is obvious).
Answer with the JSON object only.`;

/**
 * Asks a model that sees images what differs between a design and its website beyond what was
 * measured. Its recommendations are marked as the model's, with the model named, because nothing in
 * them was measured: a reader must be able to tell them from the pixel comparison's.
 */
export async function reviewDesign(request: DesignReviewRequest): Promise<DesignReview> {
  const { client, measured } = request;
  const viewport = request.viewports[0];
  if (!viewport) throw new Error('reviewDesign needs at least one compared viewport');
  const issues = measured.issues.slice(0, MAX_QUOTED_ISSUES).map((title) => `- ${title.slice(0, 200)}`);
  const more = measured.issues.length - issues.length;
  const prompt = [
    `Viewport: ${viewport.name}, ${viewport.width} × ${viewport.height} CSS pixels (the images may be scaled down or show only the top of the page).`,
    'Image 1 is the DESIGN; image 2 is the WEBSITE.',
    `Measured overall similarity: ${Math.round(measured.overall_similarity)}%.`,
    `Measured CSS fixes already proposed: ${measured.css_fixes}.`,
    issues.length
      ? `Measured findings:\n${issues.join('\n')}${more > 0 ? `\n(and ${more} more)` : ''}`
      : 'Measured findings: none.',
  ].join('\n');
  // This call's own meter: the client may be shared, and the caller wants this review's cost.
  const meter = newMeter();
  const answer = await client.object({
    kind: 'design_review',
    meter,
    system: DESIGN_REVIEW_SYSTEM,
    prompt,
    images: [viewport.design, viewport.site],
    schema: DesignReviewSchema,
    name: 'design_review',
    signal: request.signal,
  });
  const engine = client.engine;
  const recommendations = answer.recommendations.slice(0, MAX_REVIEW_RECOMMENDATIONS).map(
    (r): ReviewRecommendation => ({
      suggestion: `AI review: ${r.suggestion.trim()}`.slice(0, 2000),
      priority: r.priority,
      category: r.category,
      impact: `${r.impact.trim().slice(0, 1800)} (AI visual review by ${engine}; not measured)`.trim(),
      solution: r.solution.trim().slice(0, 5000),
    }),
  );
  return { recommendations, engine, usage: { ...meter } };
}
