import type { DesignUploadRow, Repositories } from '@argus/db';
import { MAX_UPLOAD_BYTES, type UploadedDesign, UploadedDesignSchema } from '@argus/protocol';
import sharp from 'sharp';
import { AppError } from '../errors';
import { formatBytes } from '../limits/quotas';
import { type BlobStore, sniffImage } from '../storage/blob-store';
import type { SignedUrls } from '../storage/signed-urls';

/**
 * Largest design accepted, in pixels and per side: a 10 MB PNG of one colour can declare billions of
 * pixels, and decoding it would take gigabytes. Both are read from the header (sharp's `metadata()`
 * does not decode) before anything is decoded; sharp's own `limitInputPixels` guards the decode too.
 */
export const MAX_DESIGN_PIXELS = 50_000_000;
export const MAX_DESIGN_SIDE = 16_384;
/** Thumbnails are this wide (or narrower, for a smaller design). */
export const THUMBNAIL_WIDTH = 320;
export const DEFAULT_DESIGN_FILENAME = 'uploaded-design.png';

export const UPLOAD_TOO_LARGE = 'File size must be less than 10MB';
export const NOT_AN_IMAGE = 'Please select an image file: PNG, JPEG, GIF or WebP';

export type DesignContentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** A 422 about the uploaded file, in the `{detail: [...]}` shape; its message reads well alone too. */
function unreadable(msg: string, type: string): AppError {
  const error = new AppError('VALIDATION', [{ loc: ['body', 'file'], msg, type }]);
  error.message = msg;
  return error;
}

/** The text of an AppError for a socket message: its own words, not the catalogue's generic detail. */
export function problemText(error: unknown): string {
  if (error instanceof AppError) {
    if (typeof error.detail === 'string') return error.detail;
    return error.detail.map((d) => d.msg).join('; ') || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Keeps a file name readable and harmless: no path, no control or markup characters, at most 120
 * characters; the default when nothing is left.
 */
export function sanitiseFilename(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    // Control characters out (a name is shown and logged), then markup and shell-special characters.
    .replace(/\p{Cc}/gu, '')
    .replace(/[<>:"|?*`$]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return clean.slice(0, 120) || DEFAULT_DESIGN_FILENAME;
}

export interface CheckedImage {
  contentType: DesignContentType;
  width: number;
  height: number;
}

/**
 * What an upload is, from its bytes alone (the client's name and type are never believed): 413 past
 * 10 MB, 415 when it is not a PNG, JPEG, GIF or WebP, 422 when its header is unreadable or it declares
 * more pixels than MAX_DESIGN_PIXELS / MAX_DESIGN_SIDE. Nothing is decoded here.
 */
export async function checkDesignImage(data: Buffer): Promise<CheckedImage> {
  if (data.length > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_TOO_LARGE);
  const contentType = sniffImage(data);
  if (!contentType) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(data, { limitInputPixels: false, animated: false }).metadata();
    width = meta.width;
    height = meta.height;
  } catch {
    throw unreadable(
      'The image could not be read: the file is damaged or not really an image',
      'image_corrupt',
    );
  }
  if (!width || !height)
    throw unreadable('The image could not be read: it has no width or height', 'image_corrupt');
  if (width > MAX_DESIGN_SIDE || height > MAX_DESIGN_SIDE || width * height > MAX_DESIGN_PIXELS) {
    throw unreadable(
      `The image is ${width}×${height} pixels; a design may be at most ${MAX_DESIGN_SIDE} pixels a side and ${MAX_DESIGN_PIXELS / 1_000_000} million pixels in all`,
      'image_too_large',
    );
  }
  return { contentType, width, height };
}

/** A PNG thumbnail THUMBNAIL_WIDTH wide; decoding a damaged image fails here (422). */
async function thumbnail(data: Buffer): Promise<Buffer> {
  try {
    return await sharp(data, { limitInputPixels: MAX_DESIGN_PIXELS, animated: false })
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    throw unreadable(
      'The image could not be read: the file is damaged or not really an image',
      'image_corrupt',
    );
  }
}

/**
 * STORAGE_QUOTA_EXCEEDED for a design of `adding` bytes (measured, or estimated from its base64 before
 * any decode) that would take the user's stored files past MAX_STORED_BYTES_PER_USER.
 */
export function designQuotaError(usedBytes: number, limitBytes: number, adding: number): AppError {
  return new AppError(
    'STORAGE_QUOTA_EXCEEDED',
    `This design (${formatBytes(adding)}) would take your stored files past your storage quota of ` +
      `${formatBytes(limitBytes)} (MAX_STORED_BYTES_PER_USER; ${formatBytes(usedBytes)} used). ` +
      'Delete test runs you no longer need to make room.',
  );
}

/** Refuses (STORAGE_QUOTA_EXCEEDED) a design of `adding` bytes that the user's quota has no room for. */
export async function checkDesignQuota(
  repos: Repositories,
  userId: string,
  limitBytes: number,
  adding: number,
): Promise<void> {
  const used = await storedBytes(repos, userId);
  if (used + adding > limitBytes) throw designQuotaError(used, limitBytes, adding);
}

/** Bytes a user keeps: screenshots, uploads and comparison images, against MAX_STORED_BYTES_PER_USER. */
export async function storedBytes(repos: Repositories, userId: string): Promise<number> {
  const [shots, design] = await Promise.all([
    repos.testRuns.storedBytes(userId),
    repos.designComparisons.storedBytes(userId),
  ]);
  return shots + design;
}

export interface UploadDeps {
  repos: Repositories;
  blobs: BlobStore;
  urls: SignedUrls;
  maxStoredBytesPerUser: number;
  /** Runs the decode (the thumbnail), so a server can bound how many run at once. @default at once */
  imageWork?: <T>(run: () => Promise<T>) => Promise<T>;
}

/**
 * Checks a design (see `checkDesignImage`), decodes it once for its thumbnail, and stores both (blob
 * store) with a `design_uploads` row of the user's, within their storage quota.
 */
export async function storeDesignUpload(
  deps: UploadDeps,
  userId: string,
  data: Buffer,
  filename: string | undefined | null,
): Promise<DesignUploadRow> {
  const checked = await checkDesignImage(data);
  // Before the decode: a user whose quota is used up costs the server no thumbnail.
  await checkDesignQuota(deps.repos, userId, deps.maxStoredBytesPerUser, data.length);
  const thumb = await (deps.imageWork ?? ((run) => run()))(() => thumbnail(data));
  const used = await storedBytes(deps.repos, userId);
  const adding = data.length + thumb.length;
  if (used + adding > deps.maxStoredBytesPerUser)
    throw designQuotaError(used, deps.maxStoredBytesPerUser, adding);
  const [sha256, thumbnailSha] = [await deps.blobs.put(data), await deps.blobs.put(thumb)];
  return deps.repos.designComparisons.addUpload(userId, {
    sha256,
    thumbnail_sha256: thumbnailSha,
    filename: sanitiseFilename(filename),
    content_type: checked.contentType,
    width: checked.width,
    height: checked.height,
    size: data.length,
    thumbnail_bytes: thumb.length,
  });
}

/** The protocol's view of an upload, with fresh signed links. */
export function toUploadedDesign(row: DesignUploadRow, urls: SignedUrls): UploadedDesign {
  return UploadedDesignSchema.parse({
    file_id: row.id,
    filename: row.filename,
    url: urls.design('upload', row.id, row.user_id),
    thumbnail_url: urls.design('upload-thumbnail', row.id, row.user_id),
    content_type: row.content_type,
    width: row.width,
    height: row.height,
    size: row.size,
  });
}

/**
 * The bytes a `data:image/…;base64,…` URL decodes to, from its length alone (4 characters of base64
 * carry 3 bytes; padding and whitespace make it at most 2 fewer): refuses one that is not an image data
 * URL or past 10 MB, without decoding it.
 */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const header = comma < 0 ? '' : dataUrl.slice(0, comma);
  if (!/^data:image\/[a-z0-9.+-]+;base64$/i.test(header))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
  const estimate = Math.max(0, Math.floor(((dataUrl.length - comma - 1) * 3) / 4) - 2);
  if (estimate > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_TOO_LARGE);
  return estimate;
}

/** `data:image/png;base64,…` to its bytes; refuses anything bigger than 10 MB before decoding it. */
export function decodeDataUrl(dataUrl: string): Buffer {
  dataUrlBytes(dataUrl);
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}
