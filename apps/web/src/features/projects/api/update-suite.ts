import { type SavedSuite, type SavedSuiteInput, SavedSuiteSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';

/**
 * PUT /api/projects/{id}/suites/{suiteId}: a new version of a saved suite. With `base_version`, a save
 * over a newer version than the one the editor started from is refused (409, `isSuiteVersionConflict`).
 * Its hook is `useSaveSuite`.
 */
export function updateSuite(projectId: string, suiteId: string, body: SavedSuiteInput): Promise<SavedSuite> {
  return apiRequest(projectPath(projectId, 'suites', suiteId), { method: 'PUT', body }, SavedSuiteSchema);
}
