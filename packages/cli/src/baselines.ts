import { PromoteBaselinesResultSchema, type PromoteBaselinesSchema } from '@argus/protocol';
import type { z } from 'zod';
import { type Connection, requestJson } from './http';
import { checked, findEnvironment, findProject } from './resolve';

export interface PromoteOptions {
  project: string;
  /** The branch whose baselines become the default branch's (checked, not empty). */
  branch: string;
  /** Only this environment's baselines; absent: the server's choice (every environment's). */
  env?: string;
  out: (line: string) => void;
}

/**
 * `argus baselines promote`: a branch's approved visual baselines become the default branch's
 * (`POST /api/projects/{id}/visual-baselines/promote`), as 'Promote to main' does in the app. Until
 * then, approving on a branch leaves the default branch's baselines as they were. 0 once promoted
 * (even none); errors as the other commands say them (exit 2).
 */
export async function promoteBaselines(connection: Connection, options: PromoteOptions): Promise<number> {
  const project = await findProject(connection, options.project);
  const body: z.input<typeof PromoteBaselinesSchema> = { branch: options.branch };
  if (options.env !== undefined) body.environment_id = findEnvironment(project, options.env).id;
  const { promoted } = checked(
    PromoteBaselinesResultSchema,
    await requestJson(
      connection,
      'POST',
      `/api/projects/${encodeURIComponent(project.id)}/visual-baselines/promote`,
      { body },
    ),
    'the promotion',
  );
  const count = `${promoted} ${promoted === 1 ? 'baseline' : 'baselines'}`;
  options.out(`argus: promoted ${count} of branch ${options.branch} to the default branch`);
  return 0;
}
