import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import type { SavedToProject } from './save-to-project-form';

/** After a save: which suite and version went into which project, with a link to the project's page. */
export function SavedToProjectNote({ saved, href }: { saved: SavedToProject; href: string }) {
  return (
    <p
      className="mb-4 flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-xs text-emerald-900 ring-1 ring-emerald-200 ring-inset"
      data-testid="saved-to-project"
    >
      <CheckCircle2 className="mt-px size-3.5 shrink-0 text-emerald-600" aria-hidden />
      <span className="min-w-0 break-words">
        Saved "{saved.suite.name}" v{saved.suite.version} to {saved.projectName || 'the project'}.{' '}
        <Link to={href} className="font-semibold underline underline-offset-2 hover:text-emerald-700">
          Open project
        </Link>
      </span>
    </p>
  );
}
