import type { CaseArtifactRow } from '@argus/db';
import type { CaseArtifact } from '@argus/protocol';
import type { FastifyRequest } from 'fastify';
import type { CaseFileKind, SignedUrls } from '../storage/signed-urls';

/** Where Argus serves playwright-core's own trace viewer (diagnostics/trace-viewer.ts). */
export const TRACE_VIEWER_BASE = '/trace-viewer/';

/** The fields of a stored file its links are made from. */
type LinkedRow = Pick<CaseArtifactRow, 'user_id' | 'test_run_id' | 'kind' | 'attempt'>;

/**
 * Where users reach this server, for links that leave the page (the trace viewer's service worker,
 * a JUnit report, the CLI): PUBLIC_URL when set, else the request's own origin.
 */
export function publicOrigin(request: FastifyRequest, publicUrl: string | null | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** A link opening the trace viewer on a trace's (absolute, signed) link. */
export function viewerUrl(origin: string, traceUrl: string): string {
  return `${origin}${TRACE_VIEWER_BASE}index.html?trace=${encodeURIComponent(traceUrl)}`;
}

/**
 * A stored trace's or video's links, signed now for its owner (a run outlives a link): `url`, the
 * absolute link to the file of that attempt; `viewer_url`, Argus's trace viewer opened on it (traces
 * only). `caseId` is the case's result row id (the `:case` of the route). Null for a kind no link
 * opens (a case's console and network are read by login: routes/case-files.ts).
 */
export function artifactLinks(
  urls: SignedUrls,
  row: LinkedRow,
  caseId: string,
  origin: string,
): { url: string; viewer_url: string | null } | null {
  if (row.kind !== 'trace' && row.kind !== 'video') return null;
  const kind: CaseFileKind = row.kind;
  const target = { runId: row.test_run_id, caseId, attempt: row.attempt };
  const url = `${origin}${urls.caseFile(kind, target, row.user_id)}`;
  return { url, viewer_url: kind === 'trace' ? viewerUrl(origin, url) : null };
}

/** A case's kept traces and videos as clients see them (StoredTestResult.artifacts), each freshly signed. */
export function caseArtifacts(
  urls: SignedUrls,
  rows: readonly (LinkedRow & Pick<CaseArtifactRow, 'id' | 'bytes'>)[],
  caseId: string,
  origin: string,
): CaseArtifact[] {
  const listed: CaseArtifact[] = [];
  for (const row of rows) {
    const links = artifactLinks(urls, row, caseId, origin);
    if (!links) continue;
    listed.push({
      id: row.id,
      kind: row.kind as CaseFileKind,
      attempt: row.attempt,
      bytes: row.bytes,
      ...links,
    });
  }
  return listed;
}
