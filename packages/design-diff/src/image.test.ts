import { DEFAULT_VIEWPORTS } from '@argus/protocol';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_CAPTURE_HEIGHT, pixelBudget } from './compare';
import { decodeDesign, ImageLimitError, MAX_VIEWPORT_PIXELS } from './image';
import { pngHeaderOnly } from './testing';

/** 780×16384: a red band of 10 rows at the top, blue below (made once). */
let tall: Promise<Buffer> | undefined;
function tallDesign(): Promise<Buffer> {
  tall ??= makeTallDesign();
  return tall;
}
async function makeTallDesign(): Promise<Buffer> {
  return sharp({ create: { width: 780, height: 16_384, channels: 3, background: '#0000ff' } })
    .composite([
      {
        input: await sharp({ create: { width: 780, height: 10, channels: 3, background: '#ff0000' } })
          .png()
          .toBuffer(),
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
}

describe('decoding a design for one viewport', () => {
  it('cuts a narrow, tall design to the compared height before scaling it to a wide viewport', async () => {
    const design = await tallDesign();
    // Scaled whole, 780×16384 at 7680 px wide is 7680×161319: far past the limit given here, which
    // the result can only meet if the rows were cut before the scale.
    const limit = 7680 * 210;
    const { image, fullHeight } = await decodeDesign(design, {
      width: 7680,
      maxHeight: 200,
      maxPixels: limit,
    });
    expect(image.width).toBe(7680);
    expect(image.height).toBe(200);
    expect(image.data.length).toBe(7680 * 200 * 4);
    expect(fullHeight).toBe(Math.round((16_384 * 7680) / 780));
    // The 10 red rows became about 98; the rows below are the blue the cut left in place.
    const at = (y: number) => Array.from(image.data.subarray(y * 7680 * 4, y * 7680 * 4 + 3));
    expect(at(50)).toEqual([255, 0, 0]);
    expect(at(150)).toEqual([0, 0, 255]);
    expect(at(199)).toEqual([0, 0, 255]);
  });

  it('refuses a scaled design past the pixel limit before decoding it', async () => {
    const design = await tallDesign();
    const refusal = await decodeDesign(design, { width: 7680 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ImageLimitError);
    expect((refusal as ImageLimitError).limit).toBe(MAX_VIEWPORT_PIXELS);
    expect((refusal as Error).message).toBe(
      'The design scaled to 7680 px wide and cut to 161319 px is 1,238,929,920 pixels; one viewport may have at most 33,177,600',
    );
  });

  it('refuses an image whose header declares more pixels than can be compared', async () => {
    const refusal = await decodeDesign(pngHeaderOnly(16_384, 16_384), { maxHeight: 100 }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ImageLimitError);
    expect((refusal as Error).message).toMatch(
      /^The design is 16384×16384 pixels; at most 125,829,120 pixels/,
    );
  });
});

describe('the pixel budget of one comparison', () => {
  it('lets the default viewports capture full pages', () => {
    expect(pixelBudget({ ...DEFAULT_VIEWPORTS })).toEqual({
      desktop: MAX_CAPTURE_HEIGHT,
      tablet: MAX_CAPTURE_HEIGHT,
      mobile: MAX_CAPTURE_HEIGHT,
    });
  });

  it('cuts a very wide viewport’s page to what one viewport may have', () => {
    expect(pixelBudget({ wide: { width: 7680, height: 200 } })).toEqual({ wide: MAX_VIEWPORT_PIXELS / 7680 });
  });

  it('shares what is left between viewports, each keeping at least its own height', () => {
    const heights = pixelBudget(
      { a: { width: 7680, height: 4320 }, b: { width: 3840, height: 2160 } },
      { maxViewportPixels: MAX_VIEWPORT_PIXELS, maxComparisonPixels: 50_000_000 },
    );
    expect(heights.a).toBeGreaterThanOrEqual(4320);
    expect(heights.b).toBeGreaterThanOrEqual(2160);
    expect(heights.a * 7680 + heights.b * 3840).toBeLessThanOrEqual(50_000_000);
  });

  it('refuses a viewport, or viewports together, past the limits, naming them', () => {
    expect(() => pixelBudget({ huge: { width: 7680, height: 7680 } })).toThrow(
      'The huge viewport is 7680×7680 = 58,982,400 pixels; one viewport may have at most 33,177,600',
    );
    const many = Object.fromEntries(['a', 'b', 'c'].map((name) => [name, { width: 7680, height: 4320 }]));
    expect(() => pixelBudget(many)).toThrow(
      'These 3 viewports take 99,532,800 pixels together; one comparison may measure at most 66,355,200',
    );
  });
});
