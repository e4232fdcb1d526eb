import {
  type Environment,
  type Variable,
  type VariableInput,
  VariableInputSchema,
  VariableNameSchema,
} from '@argus/protocol';
import { fieldIssues, firstByField } from './issues';

/** How a secret's value is shown: never the value, never its length. */
export const SECRET_MASK = '••••';

/** One table of the Variables panel: the project-wide values, or one environment's own. */
export interface VariableScope {
  /** null: project-wide. */
  environmentId: string | null;
  title: string;
  hint: string;
  variables: Variable[];
}

const byName = (a: Variable, b: Variable) => a.name.localeCompare(b.name);

/**
 * The project-wide table, then one per environment in the project's order. A variable of an
 * environment that no longer exists is shown with the project-wide ones rather than lost.
 */
export function variableScopes(
  variables: readonly Variable[],
  environments: readonly Environment[],
): VariableScope[] {
  const known = new Set(environments.map((env) => env.id));
  const scopes: VariableScope[] = [
    {
      environmentId: null,
      title: 'Project-wide',
      hint: 'Used in every environment unless the environment sets its own.',
      variables: variables
        .filter((v) => v.environment_id === null || !known.has(v.environment_id))
        .sort(byName),
    },
  ];
  for (const env of environments) {
    scopes.push({
      environmentId: env.id,
      title: env.name,
      hint: `Used only in ${env.name}, over a project-wide value of the same name.`,
      variables: variables.filter((v) => v.environment_id === env.id).sort(byName),
    });
  }
  return scopes;
}

/** Every name once, sorted: what a login may refer to, split by kind. */
export function variableNames(variables: readonly Variable[]): {
  all: string[];
  plain: string[];
  secrets: string[];
} {
  const unique = (list: readonly Variable[]) => [...new Set(list.map((v) => v.name))].sort();
  return {
    all: unique(variables),
    plain: unique(variables.filter((v) => !v.secret)),
    secrets: unique(variables.filter((v) => v.secret)),
  };
}

/** The add/edit form of a variable or secret. */
export interface VariableValues {
  name: string;
  value: string;
  secret: boolean;
  /** '' for project-wide. */
  environmentId: string;
}

export interface VariableErrors {
  name?: string;
  value?: string;
}

/** Checks the form with the shared schema: the PUT body, or the problems by field. */
export function checkVariable(
  values: VariableValues,
): { body: VariableInput; errors: null } | { body: null; errors: VariableErrors } {
  const body: VariableInput = {
    name: values.name.trim(),
    value: values.value,
    secret: values.secret,
    environment_id: values.environmentId || null,
  };
  const parsed = VariableInputSchema.safeParse(body);
  const errors: VariableErrors = {};
  if (!parsed.success) {
    const byField = firstByField(fieldIssues(parsed.error.issues));
    if (byField.name) errors.name = byField.name;
    if (byField.value) errors.value = byField.value;
  }
  if (!errors.value && values.secret && values.value === '') errors.value = 'Enter the secret';
  if (errors.name || errors.value) return { body: null, errors };
  return { body, errors: null };
}

/** The variable of that name in that scope, which saving the form would replace. */
export function existingVariable(
  variables: readonly Variable[],
  name: string,
  environmentId: string,
): Variable | undefined {
  const wanted = name.trim();
  return variables.find((v) => v.name === wanted && v.environment_id === (environmentId || null));
}

/** Whether `name` is a valid variable name (for the login's selects and references). */
export function isVariableName(name: string): boolean {
  return VariableNameSchema.safeParse(name).success;
}
