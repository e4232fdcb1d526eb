import type { CaseArtifact } from '@argus/protocol';

// A case's kept traces and video (docs/DIAGNOSTICS.md): one trace per kept attempt, each opened in
// Argus's own trace viewer; the video of the last failed attempt played in the case view.

export interface TraceLink {
  /** 'Open trace' when there is one; 'Attempt 1 trace', 'Attempt 2 trace' when several. */
  label: string;
  attempt: number;
  /** Opens the served trace viewer on it (null: the server gave no viewer link; download only). */
  viewerUrl: string | null;
  /** The trace.zip itself. */
  downloadUrl: string;
  bytes: number;
  fileName: string;
}

export function traceLinks(artifacts: readonly CaseArtifact[], caseName: string): TraceLink[] {
  const traces = artifacts.filter((a) => a.kind === 'trace').sort((a, b) => a.attempt - b.attempt);
  return traces.map((trace) => ({
    label: traces.length > 1 ? `Attempt ${trace.attempt} trace` : 'Open trace',
    attempt: trace.attempt,
    viewerUrl: trace.viewer_url,
    downloadUrl: trace.url,
    bytes: trace.bytes,
    fileName: artifactFileName(caseName, trace.attempt, traces.length > 1, 'trace.zip'),
  }));
}

/** The case's video: the last attempt's, when one was kept. */
export function videoOf(artifacts: readonly CaseArtifact[]): CaseArtifact | null {
  const videos = artifacts.filter((a) => a.kind === 'video').sort((a, b) => b.attempt - a.attempt);
  return videos[0] ?? null;
}

/** 'checkout-fails-trace.zip', 'checkout-fails-attempt-2-trace.zip'. */
export function artifactFileName(caseName: string, attempt: number, several: boolean, suffix: string) {
  const slug =
    caseName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'case';
  return several ? `${slug}-attempt-${attempt}-${suffix}` : `${slug}-${suffix}`;
}

/** '812 B', '14.2 KB', '3.1 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A trace's size in words, as the case view and the run's list show it: 'Trace 1.2 MB'. */
export function traceSizeText(links: readonly TraceLink[]): string | null {
  if (links.length === 0) return null;
  const total = links.reduce((sum, link) => sum + link.bytes, 0);
  return links.length > 1 ? `${links.length} traces, ${formatBytes(total)}` : `Trace ${formatBytes(total)}`;
}
