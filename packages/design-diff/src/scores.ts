import type { QualityRating } from '@argus/protocol';

/** What one viewport's comparison measured, all 0 for identical images. */
export interface Measurements {
  /** Share of compared pixels that differ (0–1). */
  diffRatio: number;
  /** Mean SSIM (1 identical). */
  ssim: number;
  /** Mean CIEDE2000 over colour cells. */
  colourDistance: number;
  /** Share of the taller image's height that the other does not cover (0–1). */
  heightMismatch: number;
  /** Share of the compared area covered by issues of each category (0–1). */
  categoryArea: Partial<Record<Category, number>>;
}

export const CATEGORIES = ['layout', 'color', 'typography', 'spacing', 'content'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Quality badge colours (docs/PRODUCT.md#comparison-results). */
export const RATING_COLOURS: Record<QualityRating, string> = {
  Excellent: 'green',
  Good: 'blue',
  Fair: 'yellow',
  Poor: 'red',
};

/** Excellent ≥ 90, Good ≥ 75, Fair ≥ 60, else Poor. */
export function qualityRating(score: number): QualityRating {
  if (score >= 90) return 'Excellent';
  if (score >= 75) return 'Good';
  if (score >= 60) return 'Fair';
  return 'Poor';
}

const round1 = (n: number) => Math.round(Math.min(100, Math.max(0, n)) * 10) / 10;

/** Each term is 1 for no difference and falls strictly as its measure grows. */
const pixelTerm = (ratio: number) => Math.exp(-6 * ratio);
const ssimTerm = (s: number) => Math.max(0, Math.min(1, s)) ** 2;
const colourTerm = (de: number) => Math.exp(-Math.max(0, de) / 4);
const areaTerm = (share: number) => Math.exp(-8 * Math.max(0, share));

/**
 * The overall similarity (100 identical, falling monotonically in every measure) and the category
 * scores: each category mixes the global measure closest to it with the area of its own issues.
 */
export function scoreViewport(m: Measurements): { overall: number; categories: Record<Category, number> } {
  const p = pixelTerm(m.diffRatio);
  const s = ssimTerm(m.ssim);
  const c = colourTerm(m.colourDistance);
  const h = 1 - Math.max(0, Math.min(1, m.heightMismatch));
  const overall = 100 * (0.35 * p + 0.4 * s + 0.25 * c) * h;
  const area = (k: Category) => areaTerm(m.categoryArea[k] ?? 0);
  const categories: Record<Category, number> = {
    layout: round1(100 * s * h * area('layout')),
    color: round1(100 * c * area('color')),
    typography: round1(100 * p * area('typography')),
    spacing: round1(100 * s * area('spacing')),
    content: round1(100 * p * h * area('content')),
  };
  return { overall: round1(overall), categories };
}

/** Averages viewports' scores, weighted equally. */
export function combineScores(scores: { overall: number; categories: Record<Category, number> }[]): {
  overall: number;
  categories: Record<Category, number>;
} {
  const n = Math.max(1, scores.length);
  const categories = Object.fromEntries(
    CATEGORIES.map((k) => [k, round1(scores.reduce((t, s) => t + s.categories[k], 0) / n)]),
  ) as Record<Category, number>;
  return { overall: round1(scores.reduce((t, s) => t + s.overall, 0) / n), categories };
}
