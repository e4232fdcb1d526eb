import { DEFAULT_VIEWPORTS } from '@argus/protocol';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { viewportsForDesigns } from './compare';

const png = (width: number, height = 100) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

describe('which viewports a design is compared at', () => {
  it('compares a desktop mock-up at desktop only and says why the others were not compared', async () => {
    const design = await png(1920);
    const { compared, skipped } = await viewportsForDesigns({ ...DEFAULT_VIEWPORTS }, () => design);
    expect(compared).toEqual(['desktop']);
    expect(skipped.mobile).toBe(
      'Not compared: the design is 1920 px wide, drawn for desktop (1920 px), not for mobile (390 px). Give a design made for mobile to compare it.',
    );
    expect(Object.keys(skipped).sort()).toEqual(['mobile', 'tablet']);
  });

  it('picks the nearest width by ratio: a 375 px design is a phone design', async () => {
    const design = await png(375);
    const { compared } = await viewportsForDesigns({ ...DEFAULT_VIEWPORTS }, () => design);
    expect(compared).toEqual(['mobile']);
  });

  it('compares every viewport that has a design of its own', async () => {
    const designs: Record<string, Buffer> = {
      desktop: await png(1920),
      tablet: await png(768),
      mobile: await png(390),
    };
    const { compared, skipped } = await viewportsForDesigns({ ...DEFAULT_VIEWPORTS }, (n) => designs[n]);
    expect(compared).toEqual(['desktop', 'tablet', 'mobile']);
    expect(skipped).toEqual({});
  });

  it('keeps every tied viewport, as when a spec client sends three 1920×1080 viewports', async () => {
    const design = await png(1440);
    const same = { width: 1920, height: 1080 };
    const { compared } = await viewportsForDesigns(
      { desktop: same, tablet: same, mobile: same },
      () => design,
    );
    expect(compared).toEqual(['desktop', 'tablet', 'mobile']);
  });

  it('reads one Figma frame rendered at each width as one design drawn at the frame width', async () => {
    const renders: Record<string, Buffer> = {
      desktop: await png(1920),
      tablet: await png(768),
      mobile: await png(390),
    };
    const frame = { id: '1:2', width: 1440 };
    const { compared, skipped } = await viewportsForDesigns({ ...DEFAULT_VIEWPORTS }, (n) => renders[n], {
      desktop: frame,
      tablet: frame,
      mobile: frame,
    });
    expect(compared).toEqual(['desktop']);
    expect(skipped.tablet).toContain('the design is 1440 px wide, drawn for desktop');
  });
});
