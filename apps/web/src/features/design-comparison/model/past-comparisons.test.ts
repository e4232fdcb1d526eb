import type { ComparisonSummary } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { designLabel, pastComparisonView, siteLabel, whenLabel } from './past-comparisons';

const summary: ComparisonSummary = {
  session_id: 's1',
  comparison_type: 'image',
  website_url: 'https://shop.example.com/pricing/?plan=pro#top',
  figma_url: null,
  filename: 'home.png',
  overall_similarity: 87.6,
  quality_rating: 'Good',
  created_at: '2025-03-04T10:20:00.000Z',
};

describe('past comparisons', () => {
  it('names the site by host and path', () => {
    expect(siteLabel('https://shop.example.com/pricing/?plan=pro')).toBe('shop.example.com/pricing');
    expect(siteLabel('http://localhost:5173/')).toBe('localhost:5173');
    expect(siteLabel('not a url')).toBe('not a url');
  });

  it('names the design: Figma, the upload, or a stand-in when the upload is gone', () => {
    expect(designLabel({ comparison_type: 'figma', filename: null })).toBe('Figma');
    expect(designLabel({ comparison_type: 'image', filename: 'home.png' })).toBe('home.png');
    expect(designLabel({ comparison_type: 'image', filename: null })).toBe('Uploaded design');
  });

  it('shows the score with the quality badge tone and the time', () => {
    expect(pastComparisonView(summary, 'en-GB')).toMatchObject({
      sessionId: 's1',
      site: 'shop.example.com/pricing',
      design: 'home.png',
      percent: '88%',
      quality: 'Good',
      tone: 'blue',
    });
    expect(pastComparisonView(summary, 'en-GB').when).toContain('2025');
    expect(pastComparisonView({ ...summary, quality_rating: 'Poor' }).tone).toBe('red');
    expect(whenLabel('nonsense')).toBe('');
  });
});
