import type { WorkTarget } from './project-target';

/** What a run records about the project, environment and saved suite it ran (all null for a bare URL). */
export interface RunOrigin {
  project_id: string | null;
  environment_id: string | null;
  environment_name: string | null;
  suite_id: string | null;
  suite_version: number | null;
}

/** The project fields a run records: the target's project and environment, and the saved suite if any. */
export function originOf(
  target: WorkTarget | null,
  suite?: { id: string; version: number } | null,
): RunOrigin {
  return {
    project_id: target?.project.id ?? null,
    environment_id: target?.environment.id ?? null,
    environment_name: target?.environment.name ?? null,
    suite_id: suite?.id ?? null,
    suite_version: suite?.version ?? null,
  };
}

/** What a saved suite's run is called in the history: the suite, its version and the environment. */
export function savedRunName(
  suite: { name: string; version: number },
  environment: string | undefined,
): string {
  return `${suite.name} (v${suite.version}) on ${environment}`;
}
