import type { CaseArtifactRow, Repositories, TestResultRow } from '@argus/db';
import { type CaseArtifactKind, type CaseDiagnostics, CaseDiagnosticsSchema } from '@argus/protocol';
import { ownTestRun } from '../auth/ownership';
import { AppError } from '../errors';
import type { BlobStore } from '../storage/blob-store';

/**
 * The owner's case: the result row `caseId` of their run `runId`. Another owner's run answers 404
 * TEST_RUN_NOT_FOUND, as a missing one does; a result not of that run, 404 NOT_FOUND.
 */
export async function ownCase(
  repos: Repositories,
  ownerId: string,
  runId: string,
  caseId: string,
): Promise<TestResultRow> {
  await ownTestRun(repos, ownerId, runId);
  const result = (await repos.testRuns.results(ownerId, runId)).find((row) => row.id === caseId);
  if (!result) throw new AppError('NOT_FOUND', 'Test case result not found');
  return result;
}

/**
 * One stored file of the case: the attempt's, or the last attempt's that kept one when `attempt` is
 * null; 404 when it kept none (a case that passed under `on-failure`, a run at its quota).
 */
export async function caseFile(
  repos: Repositories,
  result: TestResultRow,
  kind: CaseArtifactKind,
  attempt: number | null,
): Promise<CaseArtifactRow> {
  const rows = await repos.caseArtifacts.forCase(
    result.user_id,
    result.test_run_id,
    result.test_case_name,
    kind,
  );
  const row = attempt === null ? rows[rows.length - 1] : rows.find((r) => r.attempt === attempt);
  if (!row) throw new AppError('NOT_FOUND', `No ${kind} was kept for this case`);
  return row;
}

async function readAll(blobs: BlobStore, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.read(sha256)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The case's console and network (its final attempt's), as stored; 404 when none were recorded. */
export async function caseDiagnostics(
  repos: Repositories,
  blobs: BlobStore,
  result: TestResultRow,
): Promise<CaseDiagnostics> {
  const row = await caseFile(repos, result, 'diagnostics', null);
  const text = (await readAll(blobs, row.sha256)).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = CaseDiagnosticsSchema.safeParse(json);
  if (!parsed.success) throw new AppError('NOT_FOUND', "This case's console and network cannot be read");
  return parsed.data;
}
