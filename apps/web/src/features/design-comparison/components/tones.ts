import type { QualityTone, ScoreTone } from '../model/results';

/** Quality badge colours: Excellent green, Good blue, Fair yellow, else red (docs/PRODUCT.md#comparison-results). */
export const QUALITY_BADGE: Record<QualityTone, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  blue: 'bg-blue-50 text-blue-700 ring-blue-200',
  yellow: 'bg-yellow-50 text-yellow-800 ring-yellow-300',
  red: 'bg-red-50 text-red-700 ring-red-200',
};

/** Score colours (docs/PRODUCT.md#comparison-results). */
export const SCORE_TEXT: Record<ScoreTone, string> = {
  green: 'text-emerald-700',
  yellow: 'text-yellow-700',
  red: 'text-red-600',
};
export const SCORE_BAR: Record<ScoreTone, string> = {
  green: 'bg-emerald-500',
  yellow: 'bg-yellow-400',
  red: 'bg-red-500',
};
