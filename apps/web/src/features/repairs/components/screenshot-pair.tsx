import { ImageOff } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { Spinner } from '../../../components/spinner';
import { useScreenshot } from '../api/get-screenshot';

/** How often a link that no longer opens (it expired) is asked for again, at most. */
const RENEW_INTERVAL_MS = 30_000;

function Shot({ id, caption, alt }: { id: string | null; caption: string; alt: string }) {
  const shot = useScreenshot(id);
  const renewedAt = useRef(0);
  const renew = () => {
    if (Date.now() - renewedAt.current < RENEW_INTERVAL_MS) return;
    renewedAt.current = Date.now();
    void shot.refetch();
  };
  let body: ReactNode;
  if (id === null || shot.isError) {
    body = (
      <div className="flex aspect-video flex-col items-center justify-center gap-1 text-xs text-slate-600">
        <ImageOff className="size-5 text-slate-400" aria-hidden />
        {id === null ? 'No screenshot' : 'The screenshot could not be loaded'}
      </div>
    );
  } else if (shot.isPending) {
    body = (
      <div className="flex aspect-video items-center justify-center text-indigo-600">
        <Spinner label={`Loading ${caption.toLowerCase()}`} />
      </div>
    );
  } else {
    body = (
      <a
        href={shot.data.url}
        target="_blank"
        rel="noreferrer"
        className="block focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <img
          src={shot.data.url}
          alt={alt}
          onError={renew}
          className="block max-h-72 w-full object-contain object-top"
          loading="lazy"
        />
      </a>
    );
  }
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      <figcaption className="border-b border-slate-200 bg-white px-2 py-1 text-xs font-medium text-slate-700">
        {caption}
      </figcaption>
      {body}
    </figure>
  );
}

/**
 * The repaired step's page before and after: the last passing run's screenshot and the proof's (now),
 * side by side, stacked on a narrow screen.
 */
export function ScreenshotPair({
  caseName,
  before,
  after,
}: {
  caseName: string;
  before: string | null;
  after: string | null;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="repair-screenshots">
      <Shot id={before} caption="Before: last passing run" alt={`${caseName}, when it last passed`} />
      <Shot
        id={after}
        caption="Now: the repaired case"
        alt={`${caseName}, repaired, on the app as it is now`}
      />
    </div>
  );
}
