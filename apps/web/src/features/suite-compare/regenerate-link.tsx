import type { SavedSuite } from '@argus/protocol';
import { RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { suiteRegeneratePath } from './model/paths';

/** The suites list's 'Regenerate' action: to the regeneration of that suite. */
export function RegenerateLink({ suite }: { suite: SavedSuite }) {
  return (
    <Link
      to={suiteRegeneratePath(suite.project_id, suite.id)}
      className="inline-flex items-center gap-1 text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      aria-label={`Regenerate ${suite.name}`}
      data-testid="suite-regenerate-link"
    >
      <RefreshCw className="size-3.5" aria-hidden />
      Regenerate
    </Link>
  );
}
