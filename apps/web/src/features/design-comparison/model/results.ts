import type {
  ComparisonIssue,
  ComparisonResults,
  CssFix,
  IssueLocation,
  QualityRating,
  Recommendation,
  ViewportImages,
} from '@argus/protocol';

/** docs/PRODUCT.md#comparison-results: the quality badge's colour: Excellent green, Good blue, Fair yellow, anything else red. */
export type QualityTone = 'green' | 'blue' | 'yellow' | 'red';

export function qualityTone(rating: string): QualityTone {
  if (rating === 'Excellent') return 'green';
  if (rating === 'Good') return 'blue';
  if (rating === 'Fair') return 'yellow';
  return 'red';
}

/** Score colours (docs/PRODUCT.md#comparison-results): at least 80 green, at least 60 yellow, else red. */
export type ScoreTone = 'green' | 'yellow' | 'red';

export function scoreTone(percent: number): ScoreTone {
  if (percent >= 80) return 'green';
  if (percent >= 60) return 'yellow';
  return 'red';
}

/** A score as shown: whole percent, within 0-100. */
export function formatPercent(value: number): string {
  return `${Math.round(Math.max(0, Math.min(100, value)))}%`;
}

/** 'missing_element' → 'Missing element'; 'layout' → 'Layout'. */
export function humanize(name: string): string {
  const text = name.replace(/[_-]+/g, ' ').trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export interface IssueView {
  /** Stable within one result: the issue's index, for selection and the boxes. */
  id: string;
  index: number;
  title: string;
  description: string;
  kind: string;
  priority: string;
  element: string | null;
  location: IssueLocation | null;
}

export interface ViewportView {
  name: string;
  /** Null when the analysis is text only. */
  similarity: number | null;
  notes: string[];
  size: string | null;
}

export interface ResultsView {
  similarity: number;
  quality: QualityRating;
  qualityTone: QualityTone;
  categories: { name: string; label: string; score: number }[];
  viewports: ViewportView[];
  issues: IssueView[];
  minorDifferences: string[];
  recommendations: Recommendation[];
  cssFixes: CssFix[];
  /** Viewports that have images to draw the issues over, in the usual device order. */
  images: (ViewportImages & { name: string })[];
  engine: string | null;
}

/** Desktop, tablet, mobile first; any other names after, alphabetically. */
const VIEWPORT_ORDER = ['desktop', 'tablet', 'mobile'];
export function compareViewports(a: string, b: string): number {
  const ia = VIEWPORT_ORDER.indexOf(a);
  const ib = VIEWPORT_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  return a.localeCompare(b);
}

const PRIORITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };

export function issueId(index: number): string {
  return `issue-${index}`;
}

function issueView(issue: ComparisonIssue, index: number): IssueView {
  return {
    id: issueId(index),
    index,
    title: issue.issue,
    description: issue.description === issue.issue ? '' : issue.description,
    kind: issue.kind,
    priority: issue.priority,
    element: issue.element,
    location: issue.location,
  };
}

/** What the screen shows of a comparison's results, read once per result. */
export function viewResults(results: ComparisonResults): ResultsView {
  const categories = Object.entries(results.category_scores)
    .map(([name, score]) => ({ name, label: humanize(name), score }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const viewports = Object.entries(results.viewport_analysis)
    .sort(([a], [b]) => compareViewports(a, b))
    .map(([name, analysis]): ViewportView => {
      if (typeof analysis === 'string') return { name, similarity: null, notes: [analysis], size: null };
      const size = analysis.width && analysis.height ? `${analysis.width}×${analysis.height}` : null;
      return { name, similarity: analysis.similarity, notes: analysis.notes, size };
    });
  // Most urgent first; the order of the server within one priority (it sorts by size) is kept.
  const issues = results.specific_issues
    .map(issueView)
    .sort((a, b) => (PRIORITY_RANK[a.priority] ?? 2) - (PRIORITY_RANK[b.priority] ?? 2) || a.index - b.index);
  const images = Object.entries(results.viewport_images)
    .sort(([a], [b]) => compareViewports(a, b))
    .map(([name, image]) => ({ name, ...image }));
  return {
    similarity: results.overall_similarity,
    quality: results.quality_rating,
    qualityTone: qualityTone(results.quality_rating),
    categories,
    viewports,
    issues,
    minorDifferences: results.minor_differences,
    recommendations: results.recommendations,
    cssFixes: results.css_fixes,
    images,
    engine: results.engine ?? null,
  };
}

/**
 * The content of comparison-results.json: the results as the server sent them (its one spelling,
 * `overall_similarity` and `specific_issues`), without `viewport_images`: those are signed links that
 * expire within minutes, useless in a file and not meant to be passed around.
 */
export function exportContent(results: ComparisonResults): Omit<ComparisonResults, 'viewport_images'> {
  const { viewport_images: _links, ...rest } = results;
  return rest;
}

/** The export file's text (pretty-printed JSON). */
export function exportText(results: ComparisonResults): string {
  return JSON.stringify(exportContent(results), null, 2);
}

/** A box in percent of its image, clamped inside it; null when the location lies wholly outside. */
export interface PercentBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function boxInImage(
  location: Pick<IssueLocation, 'x' | 'y' | 'width' | 'height'>,
  image: { width: number; height: number },
): PercentBox | null {
  if (image.width <= 0 || image.height <= 0) return null;
  const x0 = Math.max(0, location.x);
  const y0 = Math.max(0, location.y);
  const x1 = Math.min(image.width, location.x + location.width);
  const y1 = Math.min(image.height, location.y + location.height);
  if (x1 <= x0 || y1 <= y0) return null;
  return {
    left: (x0 / image.width) * 100,
    top: (y0 / image.height) * 100,
    width: ((x1 - x0) / image.width) * 100,
    height: ((y1 - y0) / image.height) * 100,
  };
}

/** The issues drawn on one viewport's images. */
export function issuesOn(issues: readonly IssueView[], viewport: string): IssueView[] {
  return issues.filter((issue) => issue.location?.viewport === viewport);
}

/**
 * The engine writes names of code in backticks ('`#cta` shows #2563eb'): the text cut into plain and
 * code parts, so the screen can show the code as code. An unpaired backtick stays as it is.
 */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ code: false, text }];
  return parts
    .map((part, index) => ({ code: index % 2 === 1, text: part }))
    .filter((part) => part.text !== '');
}
