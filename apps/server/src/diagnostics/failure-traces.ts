import type { CaseArtifactRow, TestResultRow } from '@argus/db';
import type { SignedUrls } from '../storage/signed-urls';
import { artifactLinks } from './artifact-links';

/** A case's last kept trace as the run report names it: a signed absolute link and its size. */
export interface CaseTrace {
  url: string;
  bytes: number;
}
/** By result id (the `{case}` of `/api/runs/{id}/cases/{case}/trace.zip`). */
export type CaseTraces = ReadonlyMap<string, CaseTrace>;

/**
 * Each case's last kept trace (the highest attempt that kept one: a flaky case's failed attempt), with
 * its link signed now for the run's owner. Artifacts are stored by case name; a run's results name
 * each case once.
 */
export function caseTraces(
  urls: SignedUrls,
  artifacts: readonly CaseArtifactRow[],
  results: readonly Pick<TestResultRow, 'id' | 'test_case_name'>[],
  origin: string,
): CaseTraces {
  const lastByCase = new Map<string, CaseArtifactRow>();
  for (const row of artifacts) {
    if (row.kind !== 'trace') continue;
    const kept = lastByCase.get(row.test_case_name);
    if (!kept || row.attempt > kept.attempt) lastByCase.set(row.test_case_name, row);
  }
  const traces = new Map<string, CaseTrace>();
  for (const result of results) {
    const row = lastByCase.get(result.test_case_name);
    const links = row && artifactLinks(urls, row, result.id, origin);
    if (row && links) traces.set(result.id, { url: links.url, bytes: row.bytes });
  }
  return traces;
}
