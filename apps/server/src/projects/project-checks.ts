import type { EnvironmentRow } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import type { Environment, Project, ValidationIssue } from '@argus/protocol';
import { AppError } from '../errors';

// The checks a project's edits share: names and ids as users write them, the 422s worded for their form.

export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** Ids as a client may write them: PostgreSQL reads a uuid in either case. */
export const sameId = sameName;

/** A 422 on one field, worded for the form that sent it. */
export const fieldError = (loc: (string | number)[], msg: string) =>
  new AppError('VALIDATION', [{ loc, msg, type: 'value_error' }] satisfies ValidationIssue[]);

export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The project's environment with this id, or its default one when none is named; ENVIRONMENT_NOT_FOUND
 * for an id that is not one of them. Runs, generations and exports pick their environment with it.
 */
export function environmentOf(project: Project, environmentId?: string | null): Environment {
  const environment =
    environmentId === undefined || environmentId === null
      ? (project.environments.find((one) => one.is_default) ?? project.environments[0])
      : project.environments.find((one) => sameId(one.id, environmentId));
  if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
  return environment;
}

/**
 * Refuses (422, at `loc`) a base URL the browser's target policy refuses: a private, loopback or
 * link-local address not in ALLOWED_TARGETS, the Argus server itself. A host name that does not
 * resolve now is kept: it may be a staging host set up later, and its runs say so if it still does not.
 * No policy: not checked.
 */
export async function checkBaseUrl(
  policy: Pick<TargetPolicy, 'check'> | undefined,
  loc: (string | number)[],
  baseUrl: string,
): Promise<void> {
  if (!policy) return;
  const decision = await policy.check(baseUrl);
  if (!decision.allowed && !decision.unresolved)
    throw fieldError(loc, `This server may not test this address: ${decision.reason}`);
}

export function checkEnvironmentName(others: EnvironmentRow[], name: string): void {
  if (others.some((one) => sameName(one.name, name)))
    throw fieldError(['body', 'name'], `An environment named "${name}" already exists in this project`);
}
