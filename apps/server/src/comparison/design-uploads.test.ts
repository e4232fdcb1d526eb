import { MAX_UPLOAD_BYTES } from '@argus/protocol';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import {
  checkDesignImage,
  dataUrlBytes,
  decodeDataUrl,
  problemText,
  sanitiseFilename,
} from './design-uploads';

async function refusal(run: () => Promise<unknown> | unknown): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('design uploads', () => {
  it('reads type and size from the bytes', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#f00' } })
      .jpeg()
      .toBuffer();
    expect(await checkDesignImage(jpeg)).toEqual({ contentType: 'image/jpeg', width: 40, height: 30 });
    const webp = await sharp({ create: { width: 5, height: 6, channels: 4, background: '#0f0' } })
      .webp()
      .toBuffer();
    expect((await checkDesignImage(webp)).contentType).toBe('image/webp');
  });

  it('refuses text (415), damaged images (422) and over-large ones (413, 422) with words a user can act on', async () => {
    const text = await refusal(() => checkDesignImage(Buffer.from('hello')));
    expect([text.status, problemText(text)]).toEqual([
      415,
      'Please select an image file: PNG, JPEG, GIF or WebP',
    ]);
    const damaged = await refusal(() =>
      checkDesignImage(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(50, 7)])),
    );
    expect(damaged.status).toBe(422);
    expect(problemText(damaged)).toMatch(/could not be read/);
    const big = await refusal(() => checkDesignImage(Buffer.alloc(MAX_UPLOAD_BYTES + 1)));
    expect([big.status, problemText(big)]).toEqual([413, 'File size must be less than 10MB']);
    // 20000 × 10 is few pixels but too wide a side.
    const wide = await sharp({ create: { width: 20_000, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const tooWide = await refusal(() => checkDesignImage(wide));
    expect(problemText(tooWide)).toMatch(/^The image is 20000×10 pixels/);
  });

  it('keeps file names harmless', () => {
    expect(sanitiseFilename('../../etc/My <Design>.png')).toBe('My Design.png');
    expect(sanitiseFilename('C:\\Users\\me\\home.jpg')).toBe('home.jpg');
    expect(sanitiseFilename('a\u0000b\u0007c.png')).toBe('abc.png');
    expect(sanitiseFilename('...')).toBe('uploaded-design.png');
    expect(sanitiseFilename(undefined)).toBe('uploaded-design.png');
    expect(sanitiseFilename(`${'x'.repeat(300)}.png`).length).toBe(120);
  });

  it('decodes data URLs, measuring before decoding', async () => {
    expect(decodeDataUrl('data:image/png;base64,aGk=').toString()).toBe('hi');
    expect((await refusal(() => decodeDataUrl('data:text/plain;base64,aGk='))).status).toBe(415);
    const huge = `data:image/png;base64,${'A'.repeat(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 16)}`;
    expect((await refusal(() => decodeDataUrl(huge))).status).toBe(413);
  });

  it('estimates a data URL’s decoded bytes from its length, never under by more than 2', () => {
    for (const size of [0, 1, 2, 3, 4, 1000, 1001, 1002]) {
      const dataUrl = `data:image/png;base64,${Buffer.alloc(size, 9).toString('base64')}`;
      const estimate = dataUrlBytes(dataUrl);
      expect(estimate).toBeLessThanOrEqual(size);
      expect(size - estimate).toBeLessThanOrEqual(2);
    }
  });
});
