import type { SavedSuite } from '@argus/protocol';
import { useParams } from 'react-router';
import { ProjectScreen } from '../features/projects';
import { SuiteRepairsEntry, SuiteRepairsScreen } from '../features/repairs';
import { ComparisonScreen, RegenerateLink, RegenerateScreen } from '../features/suite-compare';

// A project's page with what other features add to its saved suites (features do not import each
// other; issue 39): each suite's proposals waiting for review and its 'Regenerate'. And the screens
// those open, under the suite's path.

/** 'Repairs (N)' and 'Regenerate' beside each saved suite. */
function SuiteActions({ suite }: { suite: SavedSuite }) {
  return (
    <>
      <SuiteRepairsEntry suite={suite} />
      <RegenerateLink suite={suite} />
    </>
  );
}

/** /projects/:id, keyed by the id, so another project starts afresh. */
export function ProjectWithSuiteActions() {
  const { id = '' } = useParams();
  return <ProjectScreen key={id} projectId={id} SuiteActions={SuiteActions} />;
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
