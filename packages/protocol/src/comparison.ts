import { z } from 'zod';
import { HttpUrlOrEmptySchema, HttpUrlSchema, JsonObjectSchema, SessionIdSchema } from './common';
import { VIEWPORT_LIMITS } from './step-language';

/** docs/PRODUCT.md#comparison-inputs: uploads are images only, at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const ViewportSchema = z.object({
  width: z.number().int().min(VIEWPORT_LIMITS.min).max(VIEWPORT_LIMITS.max),
  height: z.number().int().min(VIEWPORT_LIMITS.min).max(VIEWPORT_LIMITS.max),
});

/** A departure (docs/DECISIONS.md#real-viewport-sizes): real sizes per device; any sizes a client sends are still accepted. */
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

/** A score in percent. */
const PercentSchema = z.number().min(0).max(100);

/**
 * docs/PRODUCT.md#comparison-results: "high and critical red, medium orange, low green; default priority medium". Earlier
 * clients wrote 'High' / 'Medium': any case is read, and a priority outside the four is medium.
 */
export const ComparisonPrioritySchema = z
  .string()
  .max(50)
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(['critical', 'high', 'medium', 'low']).catch('medium'));
export type ComparisonPriority = z.output<typeof ComparisonPrioritySchema>;

/** Where on the captured page a difference is, in CSS pixels of that viewport's capture. */
export const IssueLocationSchema = z.object({
  x: z.number().nonnegative(),
  y: z.number().nonnegative(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  /** Which viewport's capture: `desktop`, `tablet`, `mobile`, or a name the client chose. */
  viewport: z.string().max(50),
});
export type IssueLocation = z.infer<typeof IssueLocationSchema>;

/** What kind of difference an issue is. */
export const IssueKindSchema = z.enum([
  'layout',
  'spacing',
  'size',
  'color',
  'typography',
  'content',
  'missing_element',
  'extra_element',
  'image',
  'other',
]);
export type IssueKind = z.infer<typeof IssueKindSchema>;

const IssueObjectSchema = z.object({
  /** A one-line title for the issue list. */
  issue: z.string().max(500),
  description: z.string().max(5000).default(''),
  kind: IssueKindSchema.catch('other'),
  priority: ComparisonPrioritySchema.default('medium'),
  /** CSS selector of the page element under the difference; null when none could be named. */
  element: z.string().max(2000).nullable().default(null),
  location: IssueLocationSchema.nullable().default(null),
});

/**
 * One difference between the design and the site (docs/PRODUCT.md#comparison-results `specific_issues` / `major_differences`).
 * A bare string is allowed too: it is read as an issue with that title.
 */
export const ComparisonIssueSchema = z.union([
  IssueObjectSchema,
  z
    .string()
    .max(2000)
    .transform((text) => IssueObjectSchema.parse({ issue: text.slice(0, 500), description: text })),
]);
export type ComparisonIssue = z.output<typeof ComparisonIssueSchema>;

/** A CSS change that brings the site closer to the design (docs/PRODUCT.md#comparison-results `css_fixes`). */
export const CssFixSchema = z.object({
  selector: z.string().max(2000),
  property: z.string().max(200),
  /** The computed value on the site; null when the property is not set there. */
  current_value: z.string().max(2000).nullable().default(null),
  recommended_value: z.string().max(2000),
  /** Ready to paste: `selector { property: recommended_value; }`. */
  css_code: z.string().max(10_000),
});
export type CssFix = z.infer<typeof CssFixSchema>;

/** `recommendations` (docs/PRODUCT.md#comparison-results); an entry written with `issue` instead of `suggestion` is read as one. */
export const RecommendationSchema = z
  .object({
    suggestion: z.string().max(2000).optional(),
    /** The spec's other spelling of `suggestion`. */
    issue: z.string().max(2000).optional(),
    priority: ComparisonPrioritySchema.default('medium'),
    /** Which category score it improves (a key of `category_scores`). */
    category: z.string().max(100).default('general'),
    /** What the user gains, in words. */
    impact: z.string().max(2000).default(''),
    /** How to do it. */
    solution: z.string().max(5000).default(''),
    /** What should change once it is done (e.g. 'Layout +6 points'). */
    expected_improvement: z.string().max(500).default(''),
  })
  .refine((r) => r.suggestion !== undefined || r.issue !== undefined, {
    message: 'A recommendation needs a suggestion',
    path: ['suggestion'],
  })
  .transform(({ suggestion, issue, ...rest }) => ({ suggestion: suggestion ?? issue ?? '', ...rest }));
export type Recommendation = z.output<typeof RecommendationSchema>;

/** How one viewport compares (docs/PRODUCT.md#comparison-results: an object with similarity and notes, or text). */
export const ViewportAnalysisSchema = z.union([
  z.object({
    similarity: PercentSchema,
    notes: z.array(z.string().max(2000)).default([]),
    /** The size the site was captured at. */
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
  }),
  z.string().max(5000),
]);
export type ViewportAnalysis = z.output<typeof ViewportAnalysisSchema>;

/** Where the images of one viewport's comparison can be fetched (signed links, minutes long). */
export const ViewportImagesSchema = z.object({
  site_url: z.string().max(4000),
  design_url: z.string().max(4000),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ViewportImages = z.infer<typeof ViewportImagesSchema>;

/**
 * `POST /api/uploads` (multipart, field `file`): a design image the user uploaded, owner-only. docs/PRODUCT.md#comparison-inputs
 * "Uploaded design" plus its size; `url` and `thumbnail_url` are signed, short-lived links.
 */
export const UploadedDesignSchema = z.object({
  file_id: z.string(),
  filename: z.string().default('uploaded-design.png'),
  url: z.string(),
  thumbnail_url: z.string().optional(),
  content_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']).optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  size: z.number().int().nonnegative().optional(),
});
export type UploadedDesign = z.infer<typeof UploadedDesignSchema>;

/** The quality badge (docs/PRODUCT.md#comparison-results): Excellent green, Good blue, Fair yellow, anything else red. */
export const QualityRatingSchema = z.enum(['Excellent', 'Good', 'Fair', 'Poor']);
export type QualityRating = z.infer<typeof QualityRatingSchema>;

/**
 * A design comparison's outcome (docs/PRODUCT.md#comparison-results), as `vision_comparison_completed`
 * carries it and the Export button downloads it. The spec's other spellings are read and folded:
 * `success_rate` into `overall_similarity`, `major_differences` into `specific_issues`.
 */
export const ComparisonResultsSchema = z
  .object({
    overall_similarity: PercentSchema.optional(),
    /** The spec's other spelling of `overall_similarity`. */
    success_rate: PercentSchema.optional(),
    quality_rating: QualityRatingSchema.catch('Poor'),
    /** Category name (layout, color, typography, spacing, content, …) to percent. */
    category_scores: z.record(z.string().max(100), PercentSchema).default({}),
    /** Viewport name (desktop, tablet, mobile, …) to how it compares. */
    viewport_analysis: z.record(z.string().max(50), ViewportAnalysisSchema).default({}),
    specific_issues: z.array(ComparisonIssueSchema).max(1000).optional(),
    /** The spec's other name for `specific_issues`. */
    major_differences: z.array(ComparisonIssueSchema).max(1000).optional(),
    minor_differences: z.array(z.string().max(2000)).max(1000).default([]),
    recommendations: z.array(RecommendationSchema).max(500).default([]),
    css_fixes: z.array(CssFixSchema).max(1000).default([]),
    /**
     * Beyond the spec: per viewport, short-lived signed links to the site's capture and to the design as
     * it was compared (scaled to the viewport width, cropped to the compared height), both `width` ×
     * `height` CSS pixels, so a screen can draw the issues' boxes over them (side by side, overlay).
     */
    viewport_images: z.record(z.string().max(50), ViewportImagesSchema).default({}),
    /** Beyond the spec: which engine measured it ('Argus design-diff (pixel, SSIM, CIEDE2000)'). */
    engine: z.string().max(200).optional(),
  })
  .refine((r) => r.overall_similarity !== undefined || r.success_rate !== undefined, {
    message: 'Results need an overall similarity',
    path: ['overall_similarity'],
  })
  .transform(({ success_rate, major_differences, ...rest }) => ({
    ...rest,
    overall_similarity: rest.overall_similarity ?? success_rate ?? 0,
    specific_issues: rest.specific_issues ?? major_differences ?? [],
  }));
export type ComparisonResults = z.output<typeof ComparisonResultsSchema>;
export type ComparisonResultsInput = z.input<typeof ComparisonResultsSchema>;

/**
 * `GET /api/comparisons/{session_id}`: the last comparison of a design session (session_type
 * 'figma-comparison'), owner-only, so a user can reopen it; 404 when the session has none yet.
 */
export const StoredComparisonSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  comparison_type: z.enum(['figma', 'image']),
  website_url: z.string(),
  figma_url: z.string().nullable(),
  file_id: z.string().nullable(),
  /** The uploaded design an image comparison used (its name, size, fresh links); absent for Figma. */
  design: UploadedDesignSchema.nullable().optional(),
  results: ComparisonResultsSchema,
  created_at: z.string(),
});
export type StoredComparison = z.output<typeof StoredComparisonSchema>;

/**
 * `GET /api/comparisons` (optional `?limit=`, at most 50): the user's past comparisons, the latest of
 * each design session, newest first; reopen one with `GET /api/comparisons/{session_id}`.
 */
export const ComparisonSummarySchema = z.object({
  session_id: z.string(),
  comparison_type: z.enum(['figma', 'image']),
  website_url: z.string(),
  figma_url: z.string().nullable(),
  /** The uploaded design's name; null for a Figma comparison or when the upload is gone. */
  filename: z.string().nullable(),
  overall_similarity: PercentSchema,
  quality_rating: QualityRatingSchema.catch('Poor'),
  created_at: z.string(),
});
export type ComparisonSummary = z.output<typeof ComparisonSummarySchema>;
export const ComparisonSummaryListSchema = z.array(ComparisonSummarySchema);

export const ComparisonListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(50),
});

// ---- socket payloads: the `data` of the design comparison's messages (ws.ts wraps them in the envelope) -

export const FigmaWebsiteComparisonDataSchema = z.discriminatedUnion('comparison_type', [
  z.object({
    comparison_type: z.literal('figma'),
    session_id: SessionIdSchema.nullable().optional(),
    figma_url: HttpUrlSchema,
    website_url: HttpUrlSchema,
    options: ComparisonOptionsSchema.optional(),
    viewports: z.record(z.string(), ViewportSchema).optional(),
  }),
  z.object({
    comparison_type: z.literal('image'),
    session_id: SessionIdSchema.nullable().optional(),
    file_id: z.string().max(200),
    website_url: HttpUrlSchema,
    options: ComparisonOptionsSchema.optional(),
    viewports: z.record(z.string(), ViewportSchema).optional(),
  }),
]);
export const UploadAndCompareImageDataSchema = z.object({
  image_data: z.string().startsWith('data:image/'),
  filename: z.string().max(255).default('uploaded-design.png'),
  website_url: HttpUrlSchema.optional(),
  session_id: SessionIdSchema.nullable().optional(),
});
export const StopComparisonDataSchema = z
  .object({ session_id: SessionIdSchema.nullable().optional() })
  .passthrough()
  .default({});
export const GetFigmaHelpDataSchema = z.object({
  /** The file the user asks about; empty when none was typed yet. */
  figma_url: HttpUrlOrEmptySchema.optional(),
  error_context: z.string().max(100).default('general'),
  session_id: SessionIdSchema.nullable().optional(),
});

// URLs in server payloads are the server's own links, so they are plain strings.

export const FigmaPermissionErrorDataSchema = JsonObjectSchema.default({});
export const VisionComparisonProgressDataSchema = z.object({
  message: z.string(),
  progress_percentage: z.number().min(0).max(100),
});
export const VisionComparisonCompletedDataSchema = z.object({ results: ComparisonResultsSchema });
export const VisionComparisonErrorDataSchema = z.object({ error: z.string() });
export const UploadCompletedDataSchema = z.object({
  file_id: z.string(),
  filename: z.string(),
  url: z.string(),
  thumbnail_url: z.string().optional(),
});
export const FigmaSharingInstructionsDataSchema = JsonObjectSchema.default({});
