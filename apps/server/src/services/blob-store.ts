import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Content-addressed files under DATA_DIR/blobs: the same bytes are stored once, named by SHA-256. */
export class BlobStore {
  constructor(private readonly root: string) {}

  private path(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('bad blob id');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(data: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    const path = this.path(sha256);
    try {
      await access(path);
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
