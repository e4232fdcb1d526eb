import type { CaseArtifactRow, Repositories } from '@argus/db';
import type { CaseArtifactKind } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { storageQuotaError } from '../limits/quotas';
import type { BlobStore } from '../storage/blob-store';

/** One file an attempt at a case left: its trace, its video, or its console and network (JSON). */
export interface CaseFile {
  kind: CaseArtifactKind;
  /** 1 for the first attempt. */
  attempt: number;
  data: Buffer;
}

/** A run's storage as its files count against it (the run's ScreenshotStorage, runs/run-recorder.ts). */
export interface FileStorage {
  used: number;
  limit: number;
  /** Set once the run has logged that it stopped storing its cases' files. */
  filesFull?: boolean;
}

/** How each kind is stored and served. */
export const CASE_FILE_MIME: Record<CaseArtifactKind, string> = {
  trace: 'application/zip',
  video: 'video/webm',
  diagnostics: 'application/json',
};

/** The line a run's log gets, once, when its cases' files stop being stored. */
export const FILES_NOT_STORED = 'Traces from here on are not stored.';

/**
 * Stores one file of a case (the blob, then its case_artifacts row) within the run's storage, counted
 * before the write like a screenshot (runs/run-recorder.ts), so cases ending in parallel cannot all
 * pass the same check. Past the quota it is not stored, the run's log says so once, and the run goes
 * on: a case's files explain a failure, they are never why a run fails. Null when not stored.
 */
export async function storeCaseFile(
  deps: { repos: Repositories; blobs: BlobStore; log: FastifyBaseLogger },
  ownerId: string,
  runId: string,
  caseName: string,
  file: CaseFile,
  storage: FileStorage,
): Promise<CaseArtifactRow | null> {
  const bytes = file.data.length;
  if (storage.used + bytes > storage.limit) {
    if (!storage.filesFull) {
      storage.filesFull = true;
      const why = storageQuotaError(storage.used, storage.limit).message;
      const message = `${FILES_NOT_STORED} ${why}`;
      await deps.repos.testRuns
        .appendLog(ownerId, runId, [{ timestamp: new Date().toISOString(), level: 'warn', message }])
        .catch(() => undefined);
    }
    return null;
  }
  storage.used += bytes;
  try {
    const sha256 = await deps.blobs.put(file.data);
    return await deps.repos.caseArtifacts.add(ownerId, {
      test_run_id: runId,
      test_case_name: caseName,
      attempt: file.attempt,
      kind: file.kind,
      sha256,
      mime: CASE_FILE_MIME[file.kind],
      bytes,
    });
  } catch (error) {
    storage.used -= bytes;
    deps.log.warn({ err: error, runId }, `could not store a case's ${file.kind}`);
    return null;
  }
}
