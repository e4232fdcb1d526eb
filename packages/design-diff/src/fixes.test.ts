import { describe, expect, it } from 'vitest';
import type { ElementInfo } from './capture';
import { analyseRegion, estimateShift, type RegionAnalysis } from './classify';
import { cssFixes } from './fixes';
import type { RgbaImage } from './image';

function page(
  width: number,
  height: number,
  boxes: { x: number; y: number; w: number; h: number; rgb: number[] }[],
) {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const b of boxes)
    for (let y = b.y; y < b.y + b.h; y++)
      for (let x = b.x; x < b.x + b.w; x++) data.set([...b.rgb, 255], (y * width + x) * 4);
  return { data, width, height } satisfies RgbaImage;
}
const style = (over: Partial<ElementInfo['style']>): ElementInfo['style'] => ({
  color: 'rgb(0, 0, 0)',
  'background-color': 'rgba(0, 0, 0, 0)',
  'font-size': '16px',
  'font-weight': '400',
  'line-height': 'normal',
  'margin-top': '0px',
  'margin-left': '0px',
  'padding-top': '0px',
  'padding-left': '0px',
  position: 'static',
  top: 'auto',
  left: 'auto',
  width: '100px',
  height: '40px',
  ...over,
});
const element = (over: Partial<ElementInfo['style']>, text = ''): ElementInfo => ({
  selector: '#x',
  tag: 'div',
  box: { x: 20, y: 20, width: 100, height: 40 },
  text,
  hasChildren: false,
  style: style(over),
});

describe('region analysis and CSS fixes', () => {
  it("reads a recoloured box as colour and sets background-color to the design's colour", () => {
    const design = page(200, 100, [{ x: 20, y: 20, w: 100, h: 40, rgb: [37, 99, 235] }]);
    const site = page(200, 100, [{ x: 20, y: 20, w: 100, h: 40, rgb: [220, 38, 38] }]);
    const a = analyseRegion(design, site, { x: 16, y: 16, width: 112, height: 48 });
    expect(a.kind).toBe('colour');
    expect(cssFixes(a, element({ 'background-color': 'rgb(220, 38, 38)' }))).toEqual([
      {
        selector: '#x',
        property: 'background-color',
        current_value: 'rgb(220, 38, 38)',
        recommended_value: '#2563eb',
        css_code: '#x { background-color: #2563eb; }',
      },
    ]);
  });

  it('reads a moved box as a shift, confirmed by undoing it, and moves it back with margin-top', () => {
    const design = page(200, 140, [{ x: 20, y: 20, w: 100, h: 40, rgb: [30, 30, 30] }]);
    const site = page(200, 140, [{ x: 20, y: 44, w: 100, h: 40, rgb: [30, 30, 30] }]);
    const region = { x: 16, y: 16, width: 112, height: 72 };
    const shift = estimateShift(design, site, region);
    expect(shift).toMatchObject({ sx: 0, sy: 24 });
    expect(shift!.residual).toBeLessThan(0.05);
    const a = analyseRegion(design, site, region, shift);
    expect(a).toMatchObject({ kind: 'shift', dx: 0, dy: -24 });
    expect(cssFixes(a, element({ 'margin-top': '24px' }))[0]).toMatchObject({
      property: 'margin-top',
      recommended_value: '0px',
    });
  });

  it('scales font-size by the ratio of the glyph extents, and reads a vanished box as missing', () => {
    const analysis = {
      kind: 'size',
      inkDesign: { x: 0, y: 0, width: 400, height: 30 },
      inkSite: { x: 0, y: 0, width: 480, height: 36 },
    } as RegionAnalysis;
    expect(cssFixes(analysis, element({ 'font-size': '48px' }, 'Heading'))[0]).toMatchObject({
      property: 'font-size',
      current_value: '48px',
      recommended_value: '40px',
    });
    const design = page(200, 100, [{ x: 20, y: 20, w: 100, h: 40, rgb: [99, 102, 241] }]);
    const site = page(200, 100, []);
    expect(analyseRegion(design, site, { x: 16, y: 16, width: 112, height: 48 }).kind).toBe('missing');
    expect(analyseRegion(site, design, { x: 16, y: 16, width: 112, height: 48 }).kind).toBe('extra');
  });
});
