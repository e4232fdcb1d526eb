import type { SessionMetadata } from './types';

/** docs/PRODUCT.md#sessions: only the last 10 logs are kept when a session is stored. */
export const MAX_STORED_LOGS = 10;

/** Keys whose values are image data; they are never stored (docs/PRODUCT.md#sessions: no screenshots). */
const IMAGE_KEYS = new Set(['screenshots', 'screenshot', 'image_data', 'base64_data', 'frame']);

function withoutImages(value: unknown, depth: number): unknown {
  if (depth > 20) return undefined;
  if (Array.isArray(value)) return value.map((item) => withoutImages(item, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!IMAGE_KEYS.has(key)) out[key] = withoutImages(item, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * The metadata as it may be stored (local cache and server settings): no screenshots or image data
 * anywhere inside, and only the last 10 logs.
 */
export function sanitizeMetadata(metadata: SessionMetadata | undefined): SessionMetadata {
  if (!metadata) return {};
  const clean = withoutImages(metadata, 0) as SessionMetadata;
  if (Array.isArray(clean.logs) && clean.logs.length > MAX_STORED_LOGS) {
    clean.logs = clean.logs.slice(-MAX_STORED_LOGS);
  }
  return clean;
}
