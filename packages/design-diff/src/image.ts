import sharp from 'sharp';

/** An opaque RGBA image, 4 bytes a pixel, rows top to bottom. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Decodes a PNG / JPEG / WebP / GIF (first frame) to RGBA, flattened onto white (a design exported with
 * transparency is compared as it would show on a white page), optionally scaled to `width` keeping the
 * aspect ratio.
 */
export async function decodeImage(input: Buffer, width?: number): Promise<RgbaImage> {
  let pipeline = sharp(input, { limitInputPixels: 268_402_689 }).flatten({ background: '#ffffff' });
  if (width !== undefined) {
    const meta = await sharp(input).metadata();
    if (meta.width !== width) pipeline = pipeline.resize({ width, kernel: 'lanczos3' });
  }
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** An image's width in pixels, read from its header without decoding it. */
export async function imageWidth(input: Buffer): Promise<number> {
  const { width } = await sharp(input).metadata();
  if (!width) throw new RangeError('The design image has no width');
  return width;
}

/** The top `height` rows (no copy). */
export function cropTop(image: RgbaImage, height: number): RgbaImage {
  const h = Math.max(0, Math.min(image.height, Math.floor(height)));
  if (h === image.height) return image;
  return { data: image.data.subarray(0, image.width * h * 4), width: image.width, height: h };
}

/** A rectangle of an image (copied), clipped to the image. */
export function cropRect(
  image: RgbaImage,
  box: { x: number; y: number; width: number; height: number },
): RgbaImage {
  const x0 = clamp(Math.floor(box.x), 0, image.width);
  const y0 = clamp(Math.floor(box.y), 0, image.height);
  const x1 = clamp(Math.ceil(box.x + box.width), x0, image.width);
  const y1 = clamp(Math.ceil(box.y + box.height), y0, image.height);
  const width = x1 - x0;
  const height = y1 - y0;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * image.width + x0) * 4;
    data.set(image.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { data, width, height };
}

/** Encodes RGBA as PNG (for debugging and the benchmark's fixtures). */
export function encodePng(image: RgbaImage): Promise<Buffer> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}
