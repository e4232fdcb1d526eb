import { AnalyticsScreen } from '../features/analytics';
import { runPagePath } from '../features/history';
import { useProjectList } from '../lib/projects/project-list';

// Analytics with the user's projects and Test History's run pages for its links (features do not
// import each other). Loaded on demand with the analytics screen and its charting library.

export function AnalyticsWithProjects() {
  const projects = useProjectList();
  return <AnalyticsScreen projects={projects.data ?? []} runHref={runPagePath} />;
}
