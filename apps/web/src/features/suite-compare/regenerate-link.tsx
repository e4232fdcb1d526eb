import type { SavedSuite } from '@argus/protocol';
import { RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '../../lib/organization';
import { suiteRegeneratePath } from './model/paths';

/** The suites list's 'Regenerate' action: to the regeneration of that suite, for those who may. */
export function RegenerateLink({ suite }: { suite: SavedSuite }) {
  // Regenerating leads to saving a version: an editor's action (the permission table).
  const canRegenerate = useCan('POST /api/projects/:id/suites/:suiteId/regenerate');
  if (!canRegenerate) return null;
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
