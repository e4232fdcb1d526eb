import {
  EnvironmentInputSchema,
  type EnvironmentUpdate,
  type ProjectCreate,
  ProjectCreateSchema,
  type ProjectKind,
  type ProjectUpdate,
  ProjectUpdateSchema,
} from '@argus/protocol';
import { type FieldIssue, fieldIssues, firstByField } from './issues';

/** One environment row of the new-project form; `key` tells the rows apart while they are edited. */
export interface EnvironmentDraft {
  key: string;
  name: string;
  baseUrl: string;
}

export interface NewProjectValues {
  name: string;
  description: string;
  kind: ProjectKind;
  environments: EnvironmentDraft[];
  /** The row marked default. */
  defaultKey: string;
}

export interface EnvironmentErrors {
  name?: string;
  baseUrl?: string;
}

export interface NewProjectErrors {
  name?: string;
  description?: string;
  /** About the list as a whole (none, too many). */
  environments?: string;
  /** By row key. */
  rows: Record<string, EnvironmentErrors>;
}

/** The first environment is called this until the user says otherwise. */
export const FIRST_ENVIRONMENT_NAME = 'production';

/** Names offered for the rows added after the first, in order. */
const NEXT_ENVIRONMENT_NAMES = ['staging', 'development', 'test'];

let rowCounter = 0;
export function environmentDraft(name = '', baseUrl = ''): EnvironmentDraft {
  rowCounter += 1;
  return { key: `env-${rowCounter}`, name, baseUrl };
}

export function initialNewProject(kind: ProjectKind): NewProjectValues {
  const first = environmentDraft(FIRST_ENVIRONMENT_NAME);
  return { name: '', description: '', kind, environments: [first], defaultKey: first.key };
}

/** A row to add: named after the first of staging/development/test not taken yet, else unnamed. */
export function nextEnvironment(rows: readonly EnvironmentDraft[]): EnvironmentDraft {
  const taken = new Set(rows.map((row) => row.name.trim().toLowerCase()));
  return environmentDraft(NEXT_ENVIRONMENT_NAMES.find((name) => !taken.has(name)) ?? '');
}

/** The POST body the form stands for (the shared schema trims and checks it). */
export function newProjectBody(values: NewProjectValues): ProjectCreate {
  return {
    name: values.name,
    description: values.description.trim(),
    kind: values.kind,
    environments: values.environments.map((row) => ({
      name: row.name,
      base_url: row.baseUrl.trim(),
      is_default: row.key === values.defaultKey,
    })),
  };
}

const ROW_FIELDS: Record<string, keyof EnvironmentErrors> = { name: 'name', base_url: 'baseUrl' };

/** Places issues (from the shared schema or a 422 answer) by the fields of the form. */
export function newProjectErrors(values: NewProjectValues, issues: readonly FieldIssue[]): NewProjectErrors {
  const errors: NewProjectErrors = { rows: {} };
  for (const issue of issues) {
    const [field, index, rowField] = issue.path;
    if (field === 'name') errors.name ??= issue.message;
    else if (field === 'description') errors.description ??= issue.message;
    else if (field === 'environments') {
      const row = typeof index === 'number' ? values.environments[index] : undefined;
      const target = typeof rowField === 'string' ? ROW_FIELDS[rowField] : undefined;
      if (row && target) {
        errors.rows[row.key] ??= {};
        errors.rows[row.key][target] ??= issue.message;
      } else errors.environments ??= issue.message;
    } else errors.environments ??= issue.message;
  }
  return errors;
}

export function hasErrors(errors: NewProjectErrors): boolean {
  return (
    Boolean(errors.name || errors.description || errors.environments) ||
    Object.values(errors.rows).some((row) => row.name || row.baseUrl)
  );
}

/** Two rows with the same name (any case): the second is marked. */
function duplicateNames(rows: readonly EnvironmentDraft[]): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  rows.forEach((row, index) => {
    const name = row.name.trim().toLowerCase();
    if (!name) return;
    if (seen.has(name))
      issues.push({ path: ['environments', index, 'name'], message: 'Each environment needs its own name' });
    seen.add(name);
  });
  return issues;
}

/**
 * Checks the form with the shared schema (the server checks it again): the body to send, or the
 * problems to show by their fields.
 */
export function checkNewProject(
  values: NewProjectValues,
): { body: ProjectCreate; errors: null } | { body: null; errors: NewProjectErrors } {
  const body = newProjectBody(values);
  const parsed = ProjectCreateSchema.safeParse(body);
  const issues = [
    ...(parsed.success ? [] : fieldIssues(parsed.error.issues)),
    ...duplicateNames(values.environments),
  ];
  if (issues.length === 0) return { body, errors: null };
  return { body: null, errors: newProjectErrors(values, issues) };
}

/** An environment's add/edit form. */
export interface EnvironmentValues {
  name: string;
  baseUrl: string;
}

/** Checks an environment's form with the shared schema; `others` are the names the project has already. */
export function checkEnvironment(
  values: EnvironmentValues,
  others: readonly string[],
):
  | { body: EnvironmentUpdate & { name: string; base_url: string }; errors: null }
  | { body: null; errors: EnvironmentErrors } {
  const body = { name: values.name, base_url: values.baseUrl.trim() };
  const parsed = EnvironmentInputSchema.safeParse(body);
  const byField = parsed.success ? {} : firstByField(fieldIssues(parsed.error.issues));
  const errors: EnvironmentErrors = {};
  if (byField.name) errors.name = byField.name;
  if (byField.base_url) errors.baseUrl = byField.base_url;
  const name = values.name.trim().toLowerCase();
  if (!errors.name && others.some((other) => other.trim().toLowerCase() === name))
    errors.name = 'Another environment has this name';
  if (errors.name || errors.baseUrl) return { body: null, errors };
  return { body: parsed.success ? parsed.data : body, errors: null };
}

/** The project header's form: name and description. */
export function checkProjectDetails(values: {
  name: string;
  description: string;
}): { body: ProjectUpdate; errors: null } | { body: null; errors: { name?: string; description?: string } } {
  const parsed = ProjectUpdateSchema.safeParse({ name: values.name, description: values.description.trim() });
  if (parsed.success) return { body: parsed.data, errors: null };
  const byField = firstByField(fieldIssues(parsed.error.issues));
  return { body: null, errors: { name: byField.name, description: byField.description } };
}
