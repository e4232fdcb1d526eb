import { buffer } from 'node:stream/consumers';
import type { Repositories } from '@argus/db';
import type { BlobStore } from '../storage/blob-store';

/** Where visual checks and baselines are kept: their rows, and their pictures as blobs. */
export interface VisualStore {
  repo: Repositories['visual'];
  blobs: Pick<BlobStore, 'put' | 'read'>;
  /** A stored picture, whole (baselines are compared in memory). */
  readBlob(sha256: string): Promise<Buffer>;
}

export function visualStore(repos: Pick<Repositories, 'visual'>, blobs: BlobStore): VisualStore {
  return { repo: repos.visual, blobs, readBlob: (sha256) => buffer(blobs.read(sha256)) };
}
