import { Images } from 'lucide-react';
import { Link } from 'react-router';
import { visualBaselinesPath } from './model/baselines';

/** The project page's link to its visual baselines (composed there by app/). */
export function VisualBaselinesLink({ projectId }: { projectId: string }) {
  return (
    <Link
      to={visualBaselinesPath(projectId)}
      className="inline-flex items-center gap-1.5 rounded-lg bg-white px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      data-testid="visual-baselines-link"
    >
      <Images className="size-4" aria-hidden />
      Visual baselines
    </Link>
  );
}
