import type { FailureSightings } from '@argus/protocol';
import { Repeat } from 'lucide-react';
import { Link } from 'react-router';
import { runPagePath } from '../../run-links';
import { seenSentence } from '../model/sightings';

/** 'Seen in 14 runs since 2026-11-20 (first in run #3f2a9c1e)', the first run a link to its page. */
export function SeenLine({ seen, runId }: { seen: FailureSightings; runId: string }) {
  const sentence = seenSentence(seen, runId);
  return (
    <p className="flex items-start gap-1.5 text-xs text-slate-700" data-testid="case-seen">
      <Repeat className="mt-0.5 size-3.5 shrink-0 text-slate-500" aria-hidden />
      <span>
        {sentence.lead}
        {sentence.firstRun ? (
          <>
            {' (first in '}
            <Link
              to={runPagePath(sentence.firstRunId)}
              className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {sentence.firstRun}
            </Link>
            )
          </>
        ) : seen.runs > 1 ? (
          ' (first in this run)'
        ) : null}
      </span>
    </p>
  );
}
