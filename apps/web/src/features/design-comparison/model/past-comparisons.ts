import type { ComparisonSummary } from '@argus/protocol';
import { formatPercent, type QualityTone, qualityTone } from './results';

/** What one line of the past comparisons list shows. */
export interface PastComparisonView {
  sessionId: string;
  /** The website as host and path: 'shop.example.com/pricing'. */
  site: string;
  /** 'Figma', or the uploaded design's name. */
  design: string;
  percent: string;
  quality: string;
  tone: QualityTone;
  /** When it was compared, in the user's locale; '' for an unreadable time. */
  when: string;
}

/** 'https://shop.example.com/pricing?x=1' → 'shop.example.com/pricing'; the root page is the host alone. */
export function siteLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
    return `${parsed.host}${path}` || url;
  } catch {
    return url;
  }
}

export function designLabel(summary: Pick<ComparisonSummary, 'comparison_type' | 'filename'>): string {
  if (summary.comparison_type === 'figma') return 'Figma';
  return summary.filename ?? 'Uploaded design';
}

export function whenLabel(timestamp: string, locale?: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(locale ?? [], { dateStyle: 'medium', timeStyle: 'short' });
}

export function pastComparisonView(summary: ComparisonSummary, locale?: string): PastComparisonView {
  return {
    sessionId: summary.session_id,
    site: siteLabel(summary.website_url),
    design: designLabel(summary),
    percent: formatPercent(summary.overall_similarity),
    quality: summary.quality_rating,
    tone: qualityTone(summary.quality_rating),
    when: whenLabel(summary.created_at, locale),
  };
}
