import type { CaseArtifact } from '@argus/protocol';
import { Download, ExternalLink, Film } from 'lucide-react';
import { useMemo } from 'react';
import { traceLinks, traceSizeText, videoOf } from '../model/artifacts';
import { PRIMARY_LINK, SECONDARY_LINK } from './link-styles';

/**
 * The case's kept traces, each opened in Argus's own trace viewer in a new tab or downloaded, with
 * their size; and its video, played here.
 */
export function CaseArtifacts({
  artifacts,
  caseName,
}: {
  artifacts: readonly CaseArtifact[];
  caseName: string;
}) {
  const traces = useMemo(() => traceLinks(artifacts, caseName), [artifacts, caseName]);
  const video = useMemo(() => videoOf(artifacts), [artifacts]);
  const size = traceSizeText(traces);
  if (traces.length === 0 && !video) {
    return (
      <p className="text-xs text-slate-600" data-testid="case-no-trace">
        No trace was kept for this case.
      </p>
    );
  }
  const several = traces.length > 1;
  return (
    <div className="space-y-3">
      {traces.length > 0 && (
        <div className="flex flex-wrap items-center gap-2" data-testid="case-traces">
          {traces.map((trace) => (
            <span key={trace.attempt} className="inline-flex flex-wrap items-center gap-2">
              {trace.viewerUrl && (
                <a
                  href={trace.viewerUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={PRIMARY_LINK}
                  data-testid="open-trace"
                >
                  <ExternalLink className="size-3.5" aria-hidden />
                  {trace.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              )}
              <a
                href={trace.downloadUrl}
                download={trace.fileName}
                className={SECONDARY_LINK}
                data-testid="download-trace"
              >
                <Download className="size-3.5" aria-hidden />
                {several ? `Download attempt ${trace.attempt}` : 'Download trace'}
              </a>
            </span>
          ))}
          {size && (
            <span className="text-xs text-slate-600 tabular-nums" data-testid="trace-size">
              {size}
            </span>
          )}
        </div>
      )}
      {video && (
        <figure className="max-w-xl">
          {/* A recording of the browser has no words to caption; the steps beside it say what happens. */}
          <video
            src={video.url}
            controls
            preload="metadata"
            className="aspect-video w-full rounded-lg bg-slate-900"
            aria-label={`Video of ${caseName}`}
            data-testid="case-video"
          >
            <track kind="captions" />
          </video>
          <figcaption className="mt-1 flex items-center gap-1 text-xs text-slate-600">
            <Film className="size-3.5" aria-hidden />
            Video of attempt {video.attempt}
          </figcaption>
        </figure>
      )}
    </div>
  );
}
