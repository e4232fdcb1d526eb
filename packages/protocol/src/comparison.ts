import { z } from 'zod';

/** Spec §9: uploads are images only, at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const ViewportSchema = z.object({
  width: z.number().int().min(200).max(7680),
  height: z.number().int().min(200).max(7680),
});

/** DESIGN.md §5 departure: real sizes per device; any sizes a client sends are still accepted. */
export const DEFAULT_VIEWPORTS = {
  desktop: { width: 1920, height: 1080 },
  tablet: { width: 768, height: 1024 },
  mobile: { width: 390, height: 844 },
} as const;

export const ComparisonOptionsSchema = z.object({
  focus: z.array(z.string().max(100)).max(20).default([]),
  include_responsive: z.boolean().default(true),
  similarity_threshold: z.number().min(0).max(100).default(75),
});
export type ComparisonOptions = z.infer<typeof ComparisonOptionsSchema>;

export const ComparisonResultsSchema = z
  .object({
    overall_similarity: z.number().optional(),
    success_rate: z.number().optional(),
    quality_rating: z.string().optional(),
    category_scores: z.record(z.string(), z.number()).optional(),
    viewport_analysis: z.record(z.string(), z.unknown()).optional(),
    specific_issues: z.array(z.unknown()).optional(),
    major_differences: z.array(z.unknown()).optional(),
    minor_differences: z.array(z.string()).optional(),
    recommendations: z.array(z.unknown()).optional(),
    css_fixes: z
      .array(
        z.object({
          selector: z.string(),
          property: z.string(),
          current_value: z.string().optional(),
          recommended_value: z.string(),
          css_code: z.string().optional(),
        }),
      )
      .optional(),
  })
  .passthrough();
export type ComparisonResults = z.infer<typeof ComparisonResultsSchema>;
