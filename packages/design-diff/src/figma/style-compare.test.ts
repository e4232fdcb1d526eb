import { CssFixSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { extractDesignFacts } from './design-nodes';
import { landingFixture } from './fake-figma-api';
import { findNode } from './frame-select';
import {
  compareStyles,
  type DomElementFacts,
  domElementFacts,
  paddingShorthand,
  parseCssColor,
} from './style-compare';
import { textSimilarity } from './text-similarity';

const { file } = landingFixture();
const facts = extractDesignFacts(findNode(file.document, '1:2')!);

const text = { fontFamily: 'Inter, system-ui, sans-serif', letterSpacing: 'normal' };

/** The page at 1440 px, as a capture would read it: close to the design, with a few drifts. */
function page(): DomElementFacts[] {
  return [
    {
      selector: 'body',
      text: '',
      box: { x: 0, y: 0, width: 1440, height: 1400 },
      computed: { backgroundColor: 'rgba(0, 0, 0, 0)' },
    },
    {
      selector: 'header.site-header',
      text: 'Acme Pricing',
      box: { x: 0, y: 0, width: 1440, height: 72 },
      computed: {
        backgroundColor: 'rgb(249, 250, 251)',
        paddingTop: '20px',
        paddingRight: '80px',
        paddingBottom: '20px',
        paddingLeft: '80px',
        gap: '32px',
        display: 'flex',
      },
    },
    {
      selector: '.logo',
      text: 'Acme',
      box: { x: 80, y: 20, width: 62, height: 32 },
      computed: {
        ...text,
        color: 'rgb(17, 24, 39)',
        fontSize: '20px',
        fontWeight: '700',
        lineHeight: '32px',
      },
    },
    {
      selector: 'nav a',
      text: 'Pricing',
      box: { x: 174, y: 24, width: 56, height: 24 },
      computed: {
        ...text,
        color: 'rgb(55, 65, 81)',
        fontSize: '16px',
        fontWeight: '500',
        lineHeight: '24px',
      },
    },
    // Parent of the heading and paragraph: same words, bigger box; must not steal the heading.
    {
      selector: '.hero',
      text: 'Ship better websites, faster\nArgus tests your site with AI and compares it with your design.\nGet started',
      box: { x: 80, y: 150, width: 1280, height: 260 },
      computed: {
        display: 'flex',
        rowGap: '24px',
        columnGap: '24px',
        paddingTop: '0px',
        paddingRight: '0px',
        paddingBottom: '0px',
        paddingLeft: '0px',
      },
    },
    // The drifts: 40 px instead of 48, weight 600 instead of 700, a lighter colour.
    {
      selector: '.hero h1',
      text: 'Ship better websites, faster',
      box: { x: 80, y: 158, width: 760, height: 48 },
      computed: {
        ...text,
        color: 'rgb(31, 41, 55)',
        fontSize: '40px',
        fontWeight: '600',
        lineHeight: '56px',
        letterSpacing: '-0.5px',
      },
    },
    // Reworded a little; line-height normal (21.6 px as rendered) instead of 28 px.
    {
      selector: '.hero p',
      text: 'Argus tests your website with AI and compares it with your design.',
      box: { x: 80, y: 236, width: 700, height: 56 },
      computed: {
        ...text,
        color: 'rgb(75, 85, 99)',
        fontSize: '18px',
        fontWeight: '400',
        lineHeight: 'normal',
        lineHeightRendered: '21.6px',
      },
    },
    // Padding 10/20 instead of 12/24, gap 4 instead of 8, background a different indigo.
    {
      selector: 'a.btn-primary',
      text: 'Get started',
      box: { x: 80, y: 352, width: 152, height: 44 },
      computed: {
        ...text,
        color: 'rgb(255, 255, 255)',
        backgroundColor: 'rgb(99, 102, 241)',
        fontSize: '16px',
        fontWeight: '600',
        lineHeight: '24px',
        paddingTop: '10px',
        paddingRight: '20px',
        paddingBottom: '10px',
        paddingLeft: '20px',
        gap: '4px',
        display: 'inline-flex',
      },
    },
  ];
}

describe('compareStyles', () => {
  const result = compareStyles(facts, page(), { viewportWidth: 1440 });
  const fix = (selector: string, property: string) =>
    result.fixes.find((f) => f.selector === selector && f.property === property);

  it('matches each design text to its own element, not a parent holding the same words', () => {
    expect(result.textMatches.map((m) => [m.text.characters.slice(0, 12), m.element.selector])).toEqual([
      ['Acme', '.logo'],
      ['Pricing', 'nav a'],
      ['Ship better ', '.hero h1'],
      ['Argus tests ', '.hero p'],
      ['Get started', 'a.btn-primary'],
    ]);
    expect(result.unmatchedTexts).toEqual([]);
  });

  it('turns typography differences into fixes with the design values', () => {
    expect(fix('.hero h1', 'font-size')).toEqual({
      selector: '.hero h1',
      property: 'font-size',
      current_value: '40px',
      recommended_value: '48px',
      css_code: '.hero h1 { font-size: 48px; }',
    });
    expect(fix('.hero h1', 'font-weight')).toMatchObject({ current_value: '600', recommended_value: '700' });
    expect(fix('.hero h1', 'color')).toMatchObject({
      current_value: 'rgb(31, 41, 55)',
      recommended_value: '#111827',
    });
    expect(fix('.hero p', 'line-height')).toMatchObject({
      current_value: 'normal',
      recommended_value: '28px',
    });
  });

  it('turns fill, padding and gap differences into fixes', () => {
    expect(fix('a.btn-primary', 'background-color')).toMatchObject({
      current_value: 'rgb(99, 102, 241)',
      recommended_value: '#4f46e5',
      css_code: 'a.btn-primary { background-color: #4f46e5; }',
    });
    expect(fix('a.btn-primary', 'padding')).toMatchObject({
      current_value: '10px 20px 10px 20px',
      recommended_value: '12px 24px',
      css_code: 'a.btn-primary { padding: 12px 24px; }',
    });
    expect(fix('a.btn-primary', 'gap')).toMatchObject({ current_value: '4px', recommended_value: '8px' });
  });

  it('leaves what already matches alone, within tolerances', () => {
    const touched = new Set(result.fixes.map((f) => `${f.selector} ${f.property}`));
    expect([...touched].sort()).toEqual(
      [
        '.hero h1 font-size',
        '.hero h1 font-weight',
        '.hero h1 color',
        '.hero p line-height',
        'a.btn-primary background-color',
        'a.btn-primary padding',
        'a.btn-primary gap',
      ].sort(),
    );
    for (const f of result.fixes) expect(CssFixSchema.parse(f)).toEqual(f);
  });

  it('compares a keyword line height by what it renders: as tall as the design, or unknown, proposes nothing', () => {
    const para = page().find((e) => e.selector === '.hero p')!;
    const withLineHeight = (rendered: string | undefined) =>
      compareStyles(facts, [{ ...para, computed: { ...para.computed, lineHeightRendered: rendered } }], {
        viewportWidth: 1440,
      }).fixes.filter((f) => f.property === 'line-height');
    expect(withLineHeight('27.5px')).toEqual([]);
    expect(withLineHeight(undefined)).toEqual([]);
    expect(withLineHeight('21.6px')).toMatchObject([{ current_value: 'normal', recommended_value: '28px' }]);
  });

  it('says what kind each difference is and where it is', () => {
    const d = result.differences.find((x) => x.property === 'font-size')!;
    expect(d).toMatchObject({ kind: 'typography', nodeName: 'Heading', location: { x: 80, y: 158 } });
    expect(result.differences.find((x) => x.property === 'padding')!.kind).toBe('spacing');
  });

  it('places design boxes on a wider page by scaling, and reads a body colour different from white', () => {
    const wide = page().map((e) => ({
      ...e,
      box: {
        x: e.box.x * (1920 / 1440),
        y: e.box.y * (1920 / 1440),
        width: e.box.width * (1920 / 1440),
        height: e.box.height * (1920 / 1440),
      },
    }));
    wide[0].computed.backgroundColor = 'rgb(243, 244, 246)';
    const scaled = compareStyles(facts, wide, { viewportWidth: 1920 });
    expect(
      scaled.fixes.find((f) => f.selector === 'a.btn-primary' && f.property === 'padding'),
    ).toBeDefined();
    expect(scaled.fixes.find((f) => f.selector === 'body')).toMatchObject({
      property: 'background-color',
      recommended_value: '#ffffff',
    });
  });

  it('fixes one padding side on its own, and skips gaps on a block element', () => {
    const dom = page();
    const button = dom.find((e) => e.selector === 'a.btn-primary')!;
    Object.assign(button.computed, {
      paddingTop: '12px',
      paddingRight: '24px',
      paddingBottom: '12px',
      paddingLeft: '16px',
      display: 'block',
    });
    const out = compareStyles(facts, dom, { viewportWidth: 1440 });
    expect(
      out.fixes.find((f) => f.selector === 'a.btn-primary' && f.property.startsWith('padding')),
    ).toMatchObject({
      property: 'padding-left',
      current_value: '16px',
      recommended_value: '24px',
    });
    expect(out.fixes.find((f) => f.property === 'gap')).toBeUndefined();
  });

  it('reports design texts the page lacks', () => {
    const out = compareStyles(
      facts,
      page().filter((e) => e.selector !== 'nav a'),
      { viewportWidth: 1440 },
    );
    expect(out.unmatchedTexts.map((t) => t.characters)).toEqual(['Pricing']);
  });
});

describe('helpers', () => {
  it('reads CSS colours', () => {
    expect(parseCssColor('rgb(17, 24, 39)')).toEqual({ r: 17, g: 24, b: 39, a: 1 });
    expect(parseCssColor('rgba(0, 0, 0, 0.5)')).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseCssColor('rgb(17 24 39 / 50%)')).toEqual({ r: 17, g: 24, b: 39, a: 0.5 });
    expect(parseCssColor('#4F46E5')).toEqual({ r: 79, g: 70, b: 229, a: 1 });
    expect(parseCssColor('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseCssColor('color(display-p3 1 0 0)')).toBeUndefined();
  });

  it('writes padding shorthands', () => {
    expect(paddingShorthand([12, 24, 12, 24])).toBe('12px 24px');
    expect(paddingShorthand([8, 8, 8, 8])).toBe('8px');
    expect(paddingShorthand([4, 8, 12, 8])).toBe('4px 8px 12px');
    expect(paddingShorthand([1, 2, 3, 4])).toBe('1px 2px 3px 4px');
  });

  it('scores text likeness', () => {
    expect(textSimilarity('Get Started!', 'get started')).toBe(1);
    expect(textSimilarity('Ship better websites', 'Ship better web sites')).toBeGreaterThan(0.8);
    expect(textSimilarity('Pricing', 'About us')).toBeLessThan(0.5);
    expect(textSimilarity('', 'x')).toBe(0);
  });
});

describe('domElementFacts', () => {
  it('reads a kebab-case computed-style record; what is missing stays unknown', () => {
    const facts = domElementFacts({
      selector: 'h1',
      text: 'Hi',
      box: { x: 0, y: 0, width: 10, height: 10 },
      style: { 'font-size': '40px', 'padding-left': '4px' },
    });
    expect(facts.computed).toMatchObject({ fontSize: '40px', paddingLeft: '4px' });
    expect(facts.computed.letterSpacing).toBeUndefined();
  });
});
