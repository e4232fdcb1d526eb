import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, readdir, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** A file under the blob directory, as the retention sweep sees it. */
export interface BlobFile {
  /** The blob's SHA-256, or null for a leftover (a write's `.tmp`, a sweep's `.sweep`) under `path`. */
  sha256: string | null;
  /** A sweep's leftover `.sweep` (it stopped between setting a blob aside and deciding): that blob's SHA-256. */
  setAsideOf?: string;
  path: string;
  bytes: number;
  mtimeMs: number;
  /** When it was last renamed (set aside by a sweep, or put in place) or its times changed. */
  ctimeMs: number;
}

const BLOB_NAME = /^[0-9a-f]{64}$/;
const SET_ASIDE_NAME = /^([0-9a-f]{64})\.[0-9a-f]{12}\.sweep$/;

/**
 * Content-addressed files under DATA_DIR/blobs: the same bytes are stored once, named by SHA-256, and
 * shared by every row (and user) that stores them. A blob no row names any more is removed by the
 * retention sweep (retention/retention-sweeper.ts); a file's modification time says when it was last
 * written or re-used, and the sweep leaves recent ones alone (docs/HISTORY.md#retention).
 */
export class BlobStore {
  constructor(readonly root: string) {}

  private path(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('bad blob id');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(data: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    const path = this.path(sha256);
    try {
      // Already stored: marked as just used, so a sweep that found it unreferenced a moment ago (the
      // row about to name it is not written yet) leaves it. Fails if a sweep removed it: written again.
      const now = new Date();
      await utimes(path, now, now);
      return sha256;
    } catch {
      await mkdir(join(path, '..'), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, path);
      return sha256;
    }
  }

  read(sha256: string): Readable {
    return createReadStream(this.path(sha256));
  }

  /** Every file under the blob directory, a few directories at a time (it may hold millions). */
  async *files(): AsyncGenerator<BlobFile> {
    const entries = async (dir: string) => {
      try {
        return await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    };
    for (const first of await entries(this.root)) {
      if (!first.isDirectory()) continue;
      for (const second of await entries(join(this.root, first.name))) {
        if (!second.isDirectory()) continue;
        const dir = join(this.root, first.name, second.name);
        for (const file of await entries(dir)) {
          if (!file.isFile()) continue;
          const path = join(dir, file.name);
          const stats = await lstat(path).catch(() => null);
          if (!stats) continue;
          const setAsideOf = SET_ASIDE_NAME.exec(file.name)?.[1];
          yield {
            sha256: BLOB_NAME.test(file.name) ? file.name : null,
            path,
            bytes: stats.size,
            mtimeMs: stats.mtimeMs,
            ctimeMs: stats.ctimeMs,
            ...(setAsideOf && { setAsideOf }),
          };
        }
      }
    }
  }

  /**
   * Puts a blob a stopped sweep set aside back in place (unless it was written again meanwhile); true
   * when it did.
   */
  async restore(file: BlobFile): Promise<boolean> {
    if (!file.setAsideOf) return false;
    const path = this.path(file.setAsideOf);
    try {
      await lstat(path);
      return false;
    } catch {
      await rename(file.path, path).catch(() => undefined);
      return true;
    }
  }

  /**
   * Removes a file the sweep found unreferenced, unless it was written or re-used (`put`) at or after
   * `keepSinceMs`; the bytes freed, or null when it was kept or is gone already (another sweep).
   * The file is first renamed aside, atomically: a `put` after that writes the blob anew, and one
   * before it left a fresh modification time, which puts the file back.
   */
  async removeUnlessTouched(file: BlobFile, keepSinceMs: number): Promise<number | null> {
    const aside = `${file.path}.${randomBytes(6).toString('hex')}.sweep`;
    try {
      await rename(file.path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const stats = await lstat(aside).catch(() => null);
    // Removed meanwhile by a sweep of another process that found it set aside: nothing freed here.
    if (!stats) return null;
    if (stats.mtimeMs >= keepSinceMs) {
      // Re-used since it was listed: back in place (a copy written meanwhile holds the same bytes).
      await rename(aside, file.path);
      return null;
    }
    await unlink(aside);
    return stats.size;
  }
}

/** The image type of a buffer, from its first bytes; null when it is not an image we keep. */
export function sniffImage(data: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | null {
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (
    data.length > 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (
    data.length > 12 &&
    data.toString('ascii', 0, 4) === 'RIFF' &&
    data.toString('ascii', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (data.length > 6 && /^GIF8[79]a$/.test(data.toString('ascii', 0, 6))) return 'image/gif';
  return null;
}
