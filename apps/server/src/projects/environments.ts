import type { EnvironmentRow, ProjectScope } from '@argus/db';
import { AppError } from '../errors';
import { checkEnvironmentName, sameId } from './project-checks';
import type { EnvironmentInputBody, EnvironmentUpdateBody } from './project-inputs';

// A project's environments, edited inside its locked scope (ProjectService.edit). A project always
// has exactly one default environment.

/** As many as a new project may list (ProjectCreateSchema): adding one later is held to it too. */
export const MAX_ENVIRONMENTS = 20;

export async function addEnvironment(
  scope: ProjectScope,
  input: EnvironmentInputBody,
): Promise<EnvironmentRow> {
  const existing = await scope.environments();
  if (existing.length >= MAX_ENVIRONMENTS)
    throw new AppError('BAD_REQUEST', `A project has at most ${MAX_ENVIRONMENTS} environments`);
  checkEnvironmentName(existing, input.name);
  // Added unmarked, then made the default: the database allows one default at every moment.
  const added = await scope.addEnvironment({
    name: input.name,
    base_url: input.base_url,
    is_default: false,
  });
  if (input.is_default) await scope.makeDefault(added.id);
  await scope.touch();
  return input.is_default ? { ...added, is_default: true } : added;
}

/**
 * Renames, re-points or makes an environment the default (which unmarks the others). The default
 * cannot be unmarked as such: another is made the default instead.
 */
export async function updateEnvironment(
  scope: ProjectScope,
  environmentId: string,
  patch: EnvironmentUpdateBody,
): Promise<EnvironmentRow> {
  const existing = await scope.environments();
  const environment = existing.find((one) => sameId(one.id, environmentId));
  if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
  if (patch.is_default === false && environment.is_default)
    throw new AppError(
      'BAD_REQUEST',
      'A project always has one default environment: make another environment the default instead',
    );
  if (patch.name !== undefined)
    checkEnvironmentName(
      existing.filter((one) => one.id !== environment.id),
      patch.name,
    );
  const changes = {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.base_url !== undefined && { base_url: patch.base_url }),
  };
  let updated = environment;
  if (Object.keys(changes).length > 0)
    updated = (await scope.updateEnvironment(environment.id, changes)) ?? environment;
  if (patch.is_default && !environment.is_default) {
    await scope.makeDefault(environment.id);
    updated = { ...updated, is_default: true };
  }
  await scope.touch();
  return updated;
}

/**
 * Deletes an environment with its own variables and secrets (its runs keep its name). The last one
 * is refused; deleting the default makes the oldest remaining one the default.
 */
export async function deleteEnvironment(scope: ProjectScope, environmentId: string): Promise<true> {
  const existing = await scope.environments();
  const environment = existing.find((one) => sameId(one.id, environmentId));
  if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
  if (existing.length === 1) throw new AppError('BAD_REQUEST', 'A project keeps at least one environment');
  await scope.deleteEnvironment(environment.id);
  const oldest = existing.find((one) => one.id !== environment.id);
  if (environment.is_default && oldest) await scope.makeDefault(oldest.id);
  await scope.touch();
  return true;
}
