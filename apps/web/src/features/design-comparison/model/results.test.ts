import { ComparisonResultsSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  boxInImage,
  codeSpans,
  exportContent,
  exportText,
  issuesOn,
  qualityTone,
  scoreTone,
  viewResults,
} from './results';

const raw = {
  success_rate: 71.6,
  quality_rating: 'Fair',
  category_scores: { typography: 64, layout: 82, color: 55 },
  viewport_analysis: {
    mobile: 'Not compared',
    desktop: { similarity: 72, notes: ['Header taller'], width: 1920, height: 1080 },
  },
  major_differences: [
    'Footer missing',
    {
      issue: 'Heading colour differs',
      kind: 'color',
      priority: 'High',
      element: 'h1',
      location: { x: 10, y: 20, width: 300, height: 40, viewport: 'desktop' },
    },
  ],
  minor_differences: ['Slight padding change'],
  recommendations: [{ issue: 'Use the design colour', priority: 'low' }],
  css_fixes: [
    { selector: 'h1', property: 'color', recommended_value: '#111', css_code: 'h1 { color: #111; }' },
  ],
  viewport_images: {
    mobile: { site_url: '/m-site', design_url: '/m-design', width: 390, height: 844 },
    desktop: { site_url: '/d-site?sig=x', design_url: '/d-design?sig=y', width: 1920, height: 1080 },
  },
  engine: 'Argus design-diff',
};
const results = ComparisonResultsSchema.parse(raw);

describe('colours', () => {
  it('quality badge: Excellent green, Good blue, Fair yellow, else red (docs/PRODUCT.md#comparison-results)', () => {
    expect(qualityTone('Excellent')).toBe('green');
    expect(qualityTone('Good')).toBe('blue');
    expect(qualityTone('Fair')).toBe('yellow');
    expect(qualityTone('Poor')).toBe('red');
    expect(qualityTone('anything')).toBe('red');
  });
  it('scores: at least 80 green, at least 60 yellow, else red (docs/PRODUCT.md#comparison-results)', () => {
    expect(scoreTone(80)).toBe('green');
    expect(scoreTone(79.9)).toBe('yellow');
    expect(scoreTone(60)).toBe('yellow');
    expect(scoreTone(59)).toBe('red');
  });
});

describe('the results as shown', () => {
  const view = viewResults(results);
  it('reads the spec’s other spellings', () => {
    expect(view.similarity).toBe(71.6);
    expect(view.quality).toBe('Fair');
    expect(view.issues.map((issue) => issue.title)).toEqual(['Heading colour differs', 'Footer missing']);
    expect(view.recommendations[0]?.suggestion).toBe('Use the design colour');
  });
  it('puts the most urgent issues first and keeps their ids', () => {
    expect(view.issues[0]).toMatchObject({ id: 'issue-1', priority: 'high', element: 'h1' });
    expect(view.issues[1]).toMatchObject({
      id: 'issue-0',
      priority: 'medium',
      location: null,
      description: '',
    });
  });
  it('orders viewports desktop, tablet, mobile and reads text analyses', () => {
    expect(view.viewports.map((v) => v.name)).toEqual(['desktop', 'mobile']);
    expect(view.viewports[0]).toMatchObject({ similarity: 72, size: '1920×1080', notes: ['Header taller'] });
    expect(view.viewports[1]).toMatchObject({ similarity: null, notes: ['Not compared'] });
    expect(view.images.map((i) => i.name)).toEqual(['desktop', 'mobile']);
  });
  it('labels categories', () => {
    expect(view.categories.map((c) => `${c.label} ${c.score}`)).toEqual([
      'Color 55',
      'Layout 82',
      'Typography 64',
    ]);
  });
  it('finds the issues drawn on a viewport', () => {
    expect(issuesOn(view.issues, 'desktop').map((i) => i.id)).toEqual(['issue-1']);
    expect(issuesOn(view.issues, 'mobile')).toEqual([]);
  });
});

describe('boxes', () => {
  it('are placed in percent of their image', () => {
    expect(boxInImage({ x: 192, y: 108, width: 960, height: 540 }, { width: 1920, height: 1080 })).toEqual({
      left: 10,
      top: 10,
      width: 50,
      height: 50,
    });
  });
  it('are clamped to the image, and dropped when wholly outside', () => {
    expect(boxInImage({ x: 1800, y: 0, width: 400, height: 100 }, { width: 2000, height: 1000 })).toEqual({
      left: 90,
      top: 0,
      width: 10,
      height: 10,
    });
    expect(boxInImage({ x: 3000, y: 0, width: 10, height: 10 }, { width: 2000, height: 1000 })).toBeNull();
    expect(boxInImage({ x: 0, y: 0, width: 0, height: 10 }, { width: 2000, height: 1000 })).toBeNull();
  });
});

describe('the export (comparison-results.json)', () => {
  it('holds the results in their one spelling, without the signed image links', () => {
    const content = exportContent(results);
    expect(content).not.toHaveProperty('viewport_images');
    expect(content).not.toHaveProperty('success_rate');
    expect(content.overall_similarity).toBe(71.6);
    expect(content.specific_issues).toHaveLength(2);
    const parsed = JSON.parse(exportText(results));
    expect(parsed.css_fixes[0].css_code).toBe('h1 { color: #111; }');
    expect(exportText(results)).not.toContain('sig=');
    // The file reads back as results.
    expect(ComparisonResultsSchema.parse(parsed).overall_similarity).toBe(71.6);
  });
});

describe('code in texts', () => {
  it('cuts backticked names out as code', () => {
    expect(codeSpans('`#cta` shows `red`.')).toEqual([
      { code: true, text: '#cta' },
      { code: false, text: ' shows ' },
      { code: true, text: 'red' },
      { code: false, text: '.' },
    ]);
  });
  it('leaves texts without, or with an unpaired backtick, alone', () => {
    expect(codeSpans('plain')).toEqual([{ code: false, text: 'plain' }]);
    expect(codeSpans('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
  });
});
