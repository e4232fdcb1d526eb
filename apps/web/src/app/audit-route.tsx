import { AuditScreen } from '../features/audit';
import { useProjectList } from '../lib/projects/project-list';

// The Audit screen with the caller's projects (features do not import each other; lib/projects is shared).

/** /audit. */
export function AuditWithProjects() {
  const projects = useProjectList();
  return <AuditScreen projects={projects.data ?? []} />;
}
