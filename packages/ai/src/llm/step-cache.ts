import { createHash } from 'node:crypto';

/** Steps a model resolved, stored as concrete step-language lines so a rerun needs no model. */
export interface CachedResolution {
  actions: string[];
  engine: string;
}

export interface CacheEntry extends CachedResolution {
  stepText: string;
  pageKey: string;
  /** Whether this replaces actions that broke (self-healing). */
  healed: boolean;
}

/** Where resolutions are kept: the server's is owner-scoped in the database; tests use MemoryStepCache. */
export interface StepCacheStore {
  get(key: string): Promise<CachedResolution | undefined>;
  put(key: string, entry: CacheEntry): Promise<void>;
  /** Counts a replay that needed no model call. */
  hit(key: string): Promise<void>;
}

/** The page a step ran on, for the cache: origin and path (no query, no fragment). */
export function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** A step's key: what kind of resolution, its text (spacing and case ignored) and the page. */
export function cacheKey(kind: 'step' | 'judge', text: string, page: string): string {
  const normal = text.trim().replace(/\s+/g, ' ').toLowerCase();
  return createHash('sha256').update(`${kind}\n${normal}\n${page}`).digest('hex');
}

export class MemoryStepCache implements StepCacheStore {
  readonly entries = new Map<string, CacheEntry & { hits: number }>();

  async get(key: string): Promise<CachedResolution | undefined> {
    const entry = this.entries.get(key);
    return entry && { actions: [...entry.actions], engine: entry.engine };
  }

  async put(key: string, entry: CacheEntry): Promise<void> {
    this.entries.set(key, { ...entry, actions: [...entry.actions], hits: this.entries.get(key)?.hits ?? 0 });
  }

  async hit(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) entry.hits += 1;
  }
}
