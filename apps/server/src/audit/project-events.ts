import type { Environment, Project, ProjectUpdate, SavedSuite, Variable } from '@argus/protocol';
import type { AuditEvent } from './recorder';

// The audit rows of a project's changes (routes/projects.ts), made here so each route adds one call.
// A secret is recorded by its name; its value is never handed to these.

/** A project renamed or described again, or its login changed (the login's mode, not its steps). */
export function projectUpdated(project: Project, patch: ProjectUpdate): AuditEvent {
  const changed = Object.keys(patch).filter((key) => patch[key as keyof ProjectUpdate] !== undefined);
  if (patch.login) {
    return {
      action: 'login_changed',
      projectId: project.id,
      target: project.name,
      detail: { mode: patch.login.mode, fields: changed.join(',') },
    };
  }
  return {
    action: 'project_changed',
    projectId: project.id,
    target: project.name,
    detail: { fields: changed.join(',') },
  };
}

export function environmentChanged(
  projectId: string,
  change: 'added' | 'changed' | 'deleted',
  environment: Pick<Environment, 'id'> & Partial<Pick<Environment, 'name' | 'base_url'>>,
): AuditEvent {
  return {
    action: 'environment_changed',
    projectId,
    target: environment.name ?? null,
    detail: {
      change,
      environment_id: environment.id,
      ...(environment.base_url && { base_url: environment.base_url }),
    },
  };
}

/** A variable or secret set or deleted: by name and level; for a secret, never its value. */
export function variableChanged(
  variable: Pick<Variable, 'project_id' | 'name' | 'secret' | 'environment_id'>,
  deleted = false,
): AuditEvent {
  const action = variable.secret
    ? deleted
      ? 'secret_deleted'
      : 'secret_set'
    : deleted
      ? 'variable_deleted'
      : 'variable_set';
  return {
    action,
    projectId: variable.project_id,
    target: variable.name,
    detail: { environment_id: variable.environment_id },
  };
}

export function suiteSaved(suite: Pick<SavedSuite, 'id' | 'project_id' | 'name' | 'version'>): AuditEvent {
  return {
    action: 'suite_saved',
    projectId: suite.project_id,
    target: suite.name,
    detail: { suite_id: suite.id, version: suite.version },
  };
}

export function suiteDeleted(suite: Pick<SavedSuite, 'id' | 'project_id' | 'name'>): AuditEvent {
  return {
    action: 'suite_deleted',
    projectId: suite.project_id,
    target: suite.name,
    detail: { suite_id: suite.id },
  };
}
