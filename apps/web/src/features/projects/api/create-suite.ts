import { type SavedSuite, type SavedSuiteInput, SavedSuiteSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';

/** POST /api/projects/{id}/suites: a new saved suite, version 1 (201). Its hook is `useSaveSuite`. */
export function createSuite(projectId: string, body: SavedSuiteInput): Promise<SavedSuite> {
  return apiRequest(projectPath(projectId, 'suites'), { method: 'POST', body }, SavedSuiteSchema);
}
