import { describe, expect, it } from 'vitest';
import {
  ComparisonIssueSchema,
  type ComparisonResultsInput,
  ComparisonResultsSchema,
  CssFixSchema,
  RecommendationSchema,
} from './comparison';
import { ServerMessageSchema } from './ws';

/** What a comparison of a shop's home page against its Figma frame could answer. */
const realistic: ComparisonResultsInput = {
  overall_similarity: 82.4,
  quality_rating: 'Good',
  category_scores: { layout: 88, color: 91.5, typography: 74, spacing: 69, content: 96 },
  viewport_analysis: {
    desktop: {
      similarity: 86,
      notes: ['Hero heading wraps onto two lines'],
      width: 1920,
      height: 1080,
    },
    tablet: { similarity: 80, notes: [], width: 768, height: 1024 },
    mobile: 'Navigation collapses into a menu button in both; cards stack the same way.',
  },
  specific_issues: [
    {
      issue: 'Primary button colour differs',
      description: 'The "Shop now" button is #2563EB on the site and #4F46E5 in the design.',
      kind: 'color',
      priority: 'High',
      element: 'main section.hero a.btn-primary',
      location: { x: 640, y: 412, width: 180, height: 48, viewport: 'desktop' },
    },
    {
      issue: 'Card grid gap is narrower',
      description: 'Gap between product cards is 16px on the site, 24px in the design.',
      kind: 'spacing',
      priority: 'medium',
      element: 'ul.products',
      location: { x: 120, y: 980, width: 1680, height: 520, viewport: 'desktop' },
    },
    {
      issue: 'Newsletter form missing',
      description: 'The design has a newsletter form above the footer; the site has none.',
      kind: 'missing_element',
      priority: 'low',
      element: null,
      location: { x: 0, y: 1720, width: 768, height: 140, viewport: 'tablet' },
    },
  ],
  minor_differences: ['Footer links are 1px lighter', 'Logo is 2px higher'],
  recommendations: [
    {
      suggestion: 'Use the design token for the primary colour',
      priority: 'high',
      category: 'color',
      impact: 'The main call to action matches the brand',
      solution: 'Set --color-primary to #4F46E5 and use it for .btn-primary',
      expected_improvement: 'Colour +5 points',
    },
  ],
  css_fixes: [
    {
      selector: 'main section.hero a.btn-primary',
      property: 'background-color',
      current_value: 'rgb(37, 99, 235)',
      recommended_value: '#4F46E5',
      css_code: 'main section.hero a.btn-primary { background-color: #4F46E5; }',
    },
    {
      selector: 'ul.products',
      property: 'gap',
      current_value: '16px',
      recommended_value: '24px',
      css_code: 'ul.products { gap: 24px; }',
    },
  ],
};

describe('design comparison results (docs/PRODUCT.md#comparison-results)', () => {
  it('parses a realistic result with every part typed', () => {
    const results = ComparisonResultsSchema.parse(realistic);
    expect(results.overall_similarity).toBe(82.4);
    expect(results.quality_rating).toBe('Good');
    expect(results.category_scores).toEqual({
      layout: 88,
      color: 91.5,
      typography: 74,
      spacing: 69,
      content: 96,
    });
    expect(results.viewport_analysis.desktop).toEqual({
      similarity: 86,
      notes: ['Hero heading wraps onto two lines'],
      width: 1920,
      height: 1080,
    });
    expect(results.viewport_analysis.mobile).toMatch(/menu button/);
    expect(results.specific_issues).toHaveLength(3);
    expect(results.specific_issues[0]).toEqual({
      issue: 'Primary button colour differs',
      description: 'The "Shop now" button is #2563EB on the site and #4F46E5 in the design.',
      kind: 'color',
      // Any case is read; stored lower case, as the priority colours (docs/PRODUCT.md#comparison-results) are keyed.
      priority: 'high',
      element: 'main section.hero a.btn-primary',
      location: { x: 640, y: 412, width: 180, height: 48, viewport: 'desktop' },
    });
    expect(results.specific_issues[2]).toMatchObject({ element: null, kind: 'missing_element' });
    expect(results.recommendations[0]).toEqual(realistic.recommendations?.[0]);
    expect(results.css_fixes.map((fix) => fix.property)).toEqual(['background-color', 'gap']);
    expect(results.minor_differences).toHaveLength(2);
  });

  it('travels in vision_comparison_completed', () => {
    const message = ServerMessageSchema.parse({
      type: 'vision_comparison_completed',
      session_id: 's1',
      data: { results: realistic },
    });
    expect(
      message.type === 'vision_comparison_completed' && message.data.results.specific_issues,
    ).toHaveLength(3);
  });

  it("reads the spec's other spellings: success_rate, major_differences, string issues, issue for suggestion", () => {
    const results = ComparisonResultsSchema.parse({
      success_rate: 64,
      quality_rating: 'Fair',
      major_differences: ['Header is taller than in the design'],
      recommendations: [{ issue: 'Reduce the header padding', priority: 'Medium', category: 'spacing' }],
    });
    expect(results.overall_similarity).toBe(64);
    expect(results).not.toHaveProperty('success_rate');
    expect(results).not.toHaveProperty('major_differences');
    expect(results.specific_issues).toEqual([
      {
        issue: 'Header is taller than in the design',
        description: 'Header is taller than in the design',
        kind: 'other',
        priority: 'medium',
        element: null,
        location: null,
      },
    ]);
    expect(results.recommendations[0]).toMatchObject({
      suggestion: 'Reduce the header padding',
      priority: 'medium',
      category: 'spacing',
    });
    expect(results.css_fixes).toEqual([]);
    expect(results.category_scores).toEqual({});
  });

  it('reads an unknown priority as medium and an unknown rating as Poor (shown red)', () => {
    expect(ComparisonIssueSchema.parse({ issue: 'x', priority: 'urgent!' })).toMatchObject({
      priority: 'medium',
      kind: 'other',
    });
    expect(
      ComparisonResultsSchema.parse({ overall_similarity: 40, quality_rating: 'Meh' }).quality_rating,
    ).toBe('Poor');
  });

  it('refuses what cannot be shown: no similarity, a score past 100, a location without its viewport', () => {
    expect(ComparisonResultsSchema.safeParse({ quality_rating: 'Good' }).success).toBe(false);
    expect(ComparisonResultsSchema.safeParse({ overall_similarity: 101 }).success).toBe(false);
    expect(
      ComparisonResultsSchema.safeParse({ overall_similarity: 90, category_scores: { layout: -1 } }).success,
    ).toBe(false);
    expect(
      ComparisonIssueSchema.safeParse({ issue: 'x', location: { x: 1, y: 2, width: 3, height: 4 } }).success,
    ).toBe(false);
    expect(CssFixSchema.safeParse({ selector: 'a', property: 'color' }).success).toBe(false);
    expect(RecommendationSchema.safeParse({ priority: 'high', category: 'color' }).success).toBe(false);
  });
});
