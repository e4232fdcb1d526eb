import { MAX_UPLOAD_BYTES } from '@argus/protocol';
import { COMPARISON_TEXTS } from './texts';

export type ComparisonMethod = 'figma' | 'image';

/** docs/PRODUCT.md#comparison-inputs: the website must parse and begin with http:// or https://. */
export function isValidWebsiteUrl(value: string): boolean {
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * docs/PRODUCT.md#comparison-inputs: a Figma URL starts with the Figma site's https address. Both of Figma's hosts are read
 * (the server's reader accepts figma.com and www.figma.com), and a bare host is no file, so a path
 * after it is required.
 */
export function isValidFigmaUrl(value: string): boolean {
  const text = value.trim();
  if (!/^https:\/\/(www\.)?figma\.com\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.pathname.split('/').filter(Boolean).length >= 2;
  } catch {
    return false;
  }
}

/**
 * The inline message under a URL field: none while it is empty (nothing typed is not yet an error;
 * Start stays disabled instead), the spec text once something invalid is typed.
 */
export function websiteUrlError(value: string): string | null {
  if (!value.trim()) return null;
  return isValidWebsiteUrl(value) ? null : COMPARISON_TEXTS.invalidWebsiteUrl;
}

export function figmaUrlError(value: string): string | null {
  if (!value.trim()) return null;
  return isValidFigmaUrl(value) ? null : COMPARISON_TEXTS.invalidFigmaUrl;
}

/** docs/PRODUCT.md#comparison-inputs: image/ types only, under 10 MB. Returns the message to show, or null when the file may be sent. */
export function checkDesignFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return COMPARISON_TEXTS.notAnImage;
  if (file.size > MAX_UPLOAD_BYTES) return COMPARISON_TEXTS.tooLarge;
  return null;
}

/** An uploaded design's size and pixels, as shown under its name: '1920×1080 px · 245 KB'; null when unknown. */
export function designDetails(design: { width?: number; height?: number; size?: number }): string | null {
  const parts: string[] = [];
  if (design.width && design.height) parts.push(`${design.width}×${design.height} px`);
  if (design.size !== undefined) parts.push(fileSize(design.size));
  return parts.length > 0 ? parts.join(' · ') : null;
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** docs/PRODUCT.md#comparison-inputs: only the first dropped file is used. */
export function firstFile<T>(files: ArrayLike<T> | null | undefined): T | null {
  return files && files.length > 0 ? (files[0] ?? null) : null;
}

export interface StartInput {
  method: ComparisonMethod;
  websiteUrl: string;
  figmaUrl: string;
  /** The uploaded design's id, or null when none is uploaded. */
  fileId: string | null;
  isConnected: boolean;
  running: boolean;
  uploading: boolean;
}

/**
 * Why Start Comparison cannot be pressed (docs/PRODUCT.md#comparison-inputs: connected, website URL valid, and Figma URL valid or
 * an image uploaded), or null when it can.
 */
export function startBlocker(input: StartInput): string | null {
  if (input.running || input.uploading) return 'busy';
  if (!isValidWebsiteUrl(input.websiteUrl)) return COMPARISON_TEXTS.invalidWebsiteUrl;
  if (input.method === 'figma' && !isValidFigmaUrl(input.figmaUrl)) return COMPARISON_TEXTS.invalidFigmaUrl;
  if (input.method === 'image' && !input.fileId) return COMPARISON_TEXTS.imageRequired;
  if (!input.isConnected) return 'WebSocket is not connected';
  return null;
}
