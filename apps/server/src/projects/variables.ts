import type { ProjectScope, ProjectVariableRow } from '@argus/db';
import type { Environment, Project } from '@argus/protocol';
import { AppError } from '../errors';
import { type Secrets, SecretUnreadableError } from '../security/secrets';
import { sameId } from './project-checks';
import type { ProjectTarget, VariableInputBody } from './project-inputs';

// A project's variables and secrets: saved at one scope (the project's own or one environment's), a
// secret encrypted and bound to where it belongs, and read in clear only for the work a target runs.

/**
 * What a secret's ciphertext is bound to: a value copied into another project's, environment's or
 * name's row does not decrypt there.
 */
export function secretContext(projectId: string, environmentId: string | null, name: string): string {
  return `project_secret:${projectId}:${environmentId ?? '*'}:${name}`;
}

/**
 * Sets the value of a name at one scope, replacing what was there, a secret by a variable and the
 * other way round included; inside the project's locked scope.
 */
export async function saveVariable(
  scope: ProjectScope,
  secrets: Secrets,
  input: VariableInputBody,
): Promise<ProjectVariableRow> {
  let environmentId: string | null = null;
  if (input.environment_id !== null) {
    const wanted = input.environment_id;
    const environment = (await scope.environments()).find((one) => sameId(one.id, wanted));
    if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
    environmentId = environment.id;
  }
  const scoped = { environment_id: environmentId, name: input.name };
  const saved = await scope.saveVariable(
    input.secret
      ? {
          ...scoped,
          secret: true,
          value_enc: secrets.encrypt(input.value, secretContext(scope.project.id, environmentId, input.name)),
        }
      : { ...scoped, secret: false, value: input.value },
  );
  await scope.touch();
  return saved;
}

/** The values a target runs with: project-level first, then the environment's own (which win). */
export function targetValues(
  rows: ProjectVariableRow[],
  project: Project,
  environment: Environment,
  secrets: Secrets,
): ProjectTarget['values'] {
  const values: ProjectTarget['values'] = new Map();
  for (const level of [null, environment.id]) {
    for (const row of rows) {
      if (row.environment_id !== level) continue;
      values.set(row.name, { value: clearValue(row, project, environment, secrets), secret: row.secret });
    }
  }
  return values;
}

/**
 * A row's value in clear (server-internal). A secret this server's key cannot open (SECRETS_KEY
 * changed) throws BAD_REQUEST naming it.
 */
function clearValue(
  row: ProjectVariableRow,
  project: Project,
  environment: Environment,
  secrets: Secrets,
): string {
  if (!row.secret) return row.value ?? '';
  try {
    return secrets.decrypt(row.value_enc ?? '', secretContext(row.project_id, row.environment_id, row.name));
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    const where = row.environment_id ? `${project.name}/${environment.name}` : project.name;
    throw new AppError(
      'BAD_REQUEST',
      `The secret ${row.name} of ${where} cannot be decrypted with this server's key (SECRETS_KEY changed); enter it again in the project's settings`,
    );
  }
}
