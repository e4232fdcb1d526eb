import type { SavedSuite } from '@argus/protocol';
import { useParams } from 'react-router';
import { ProjectScreen } from '../features/projects';
import { SuiteRepairsEntry, SuiteRepairsScreen } from '../features/repairs';
import { ComparisonScreen, RegenerateLink, RegenerateScreen } from '../features/suite-compare';
import { VisualBaselinesLink, VisualBaselinesScreen } from '../features/visual-baselines';

// A project's page with what other features add to it (features do not import each other; issues 39
// and 40): each saved suite's proposals waiting for review and its 'Regenerate', and the project's
// visual baselines. And the screens those open, under the project's path.

/** 'Repairs (N)' and 'Regenerate' beside each saved suite. */
function SuiteActions({ suite }: { suite: SavedSuite }) {
  return (
    <>
      <SuiteRepairsEntry suite={suite} />
      <RegenerateLink suite={suite} />
    </>
  );
}

/** The project's pages beside its header: 'Visual baselines'. */
function ProjectLinks({ projectId }: { projectId: string }) {
  return <VisualBaselinesLink projectId={projectId} />;
}

/** /projects/:id, keyed by the id, so another project starts afresh. */
export function ProjectWithSuiteActions() {
  const { id = '' } = useParams();
  return <ProjectScreen key={id} projectId={id} SuiteActions={SuiteActions} ProjectLinks={ProjectLinks} />;
}

/** /projects/:id/baselines */
export function ProjectVisualBaselines() {
  const { id = '' } = useParams();
  return <VisualBaselinesScreen key={id} projectId={id} />;
}

/** /projects/:id/suites/:suiteId/repairs */
export function SuiteRepairs() {
  const { id = '', suiteId = '' } = useParams();
  return <SuiteRepairsScreen key={`${id}/${suiteId}`} projectId={id} suiteId={suiteId} />;
}

/** /projects/:id/suites/:suiteId/regenerate */
export function SuiteRegenerate() {
  const { id = '', suiteId = '' } = useParams();
  return <RegenerateScreen key={`${id}/${suiteId}`} projectId={id} suiteId={suiteId} />;
}

/** /projects/:id/suites/:suiteId/comparisons/:comparisonId */
export function SuiteComparison() {
  const { id = '', suiteId = '', comparisonId = '' } = useParams();
  return <ComparisonScreen key={comparisonId} projectId={id} suiteId={suiteId} comparisonId={comparisonId} />;
}
