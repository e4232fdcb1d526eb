import sharp from 'sharp';

/** An opaque RGBA image, 4 bytes a pixel, rows top to bottom. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Most pixels an image handed to the comparison may declare in its header (sharp's `limitInputPixels`):
 * a site capture is at most 7680 × 16384, and an upload or a Figma render is held to less than that
 * before it gets here. A header past it is refused before anything is decoded.
 */
export const MAX_INPUT_PIXELS = 7680 * 16_384;

/**
 * Most pixels one viewport's images may have once decoded and scaled: an 8K screen's. A design scaled
 * to a viewport's width is cut to this many (and to the compared height) before it is scaled.
 */
export const MAX_VIEWPORT_PIXELS = 7680 * 4320;

/** An image, or a comparison, that would take more pixels than a limit allows; the message names both. */
export class ImageLimitError extends RangeError {
  constructor(
    message: string,
    /** The pixels it would take, and the limit it passes. */
    readonly pixels: number,
    readonly limit: number,
  ) {
    super(message);
    this.name = 'ImageLimitError';
  }
}

/** `n` with thousands separators, for messages. */
export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** A decoded design: its top rows as compared, and the height the whole would have at that width. */
export interface DecodedDesign {
  image: RgbaImage;
  /** The whole design's height once scaled to the width asked for (only `image.height` rows were decoded). */
  fullHeight: number;
}

/**
 * Decodes a PNG / JPEG / WebP / GIF (first frame) to RGBA, flattened onto white (a design exported with
 * transparency is compared as it would show on a white page), optionally scaled to `width` keeping the
 * aspect ratio and cut to its top `maxHeight` rows. The cut is made in the image's own pixels BEFORE it
 * is scaled (plus two rows for the scaling kernel's reach), so a narrow, tall design scaled up to a
 * wide viewport costs only what is compared: the result is never more than `width × maxHeight`.
 * Refuses (ImageLimitError, nothing decoded) a header past MAX_INPUT_PIXELS and a result past
 * `maxPixels` (@default MAX_VIEWPORT_PIXELS).
 */
export async function decodeDesign(
  input: Buffer,
  options: { width?: number; maxHeight?: number; maxPixels?: number; what?: string } = {},
): Promise<DecodedDesign> {
  const what = options.what ?? 'The design';
  const maxPixels = options.maxPixels ?? MAX_VIEWPORT_PIXELS;
  // The header only (metadata decodes no pixels), so the sizes below are known before any decode.
  const meta = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
  const sourceWidth = meta.width ?? 0;
  const sourceHeight = meta.pageHeight ?? meta.height ?? 0;
  if (!sourceWidth || !sourceHeight) throw new RangeError(`${what} has no width or height`);
  if (sourceWidth * sourceHeight > MAX_INPUT_PIXELS)
    throw new ImageLimitError(
      `${what} is ${sourceWidth}×${sourceHeight} pixels; at most ${count(MAX_INPUT_PIXELS)} pixels can be compared`,
      sourceWidth * sourceHeight,
      MAX_INPUT_PIXELS,
    );
  const width = options.width ?? sourceWidth;
  const scale = width / sourceWidth;
  const fullHeight = Math.max(1, Math.round(sourceHeight * scale));
  const height = Math.max(1, Math.min(fullHeight, Math.floor(options.maxHeight ?? fullHeight)));
  if (width * height > maxPixels)
    throw new ImageLimitError(
      `${what} scaled to ${width} px wide and cut to ${height} px is ${count(width * height)} pixels; one viewport may have at most ${count(maxPixels)}`,
      width * height,
      maxPixels,
    );
  // The source rows that make the kept rows, and two more so the kernel sees past the cut's edge.
  const rows = Math.min(sourceHeight, Math.ceil(height / scale) + 2);
  let pipeline = sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    animated: false,
    sequentialRead: true,
  }).flatten({ background: '#ffffff' });
  if (rows < sourceHeight) pipeline = pipeline.extract({ left: 0, top: 0, width: sourceWidth, height: rows });
  if (width !== sourceWidth) {
    pipeline = pipeline.resize({ width, kernel: 'lanczos3' });
    const scaledRows = Math.max(1, Math.round(rows * scale));
    // The kernel's extra rows are scaled too: cut the result back to the rows kept.
    if (scaledRows > height) pipeline = pipeline.extract({ left: 0, top: 0, width, height });
  }
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
  return { image: cropTop(image, height), fullHeight };
}

/**
 * Decodes an image to RGBA (see `decodeDesign`), optionally scaled to `width`; the whole of it, so it
 * is held to MAX_VIEWPORT_PIXELS once scaled.
 */
export async function decodeImage(input: Buffer, width?: number): Promise<RgbaImage> {
  return (await decodeDesign(input, { width })).image;
}

/** An image's width in pixels, read from its header without decoding it. */
export async function imageWidth(input: Buffer): Promise<number> {
  const { width } = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
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

/**
 * Encodes RGBA as a PNG to keep (a visual check's capture for review, a baseline): zlib level 6, about
 * two thirds of the size of a capture encoded for speed, in a few milliseconds at 1440×900.
 */
export function encodeKeptPng(image: RgbaImage): Promise<Buffer> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}
