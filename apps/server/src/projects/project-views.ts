import type {
  EnvironmentRow,
  ProjectRow,
  ProjectVariableRow,
  SuiteWithVersions,
  TestRunRow,
} from '@argus/db';
import type {
  Environment,
  Project,
  ProjectKind,
  ProjectLogin,
  ProjectRun,
  SavedSuite,
  TestCase,
  Variable,
} from '@argus/protocol';
import { TracePolicySchema } from '@argus/protocol';

// The rows of a project, as the API shows them.

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toApiEnvironment(row: EnvironmentRow): Environment {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    base_url: row.base_url,
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
  };
}

export function toApiProject(row: ProjectRow, environments: EnvironmentRow[]): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind as ProjectKind,
    login: row.login as ProjectLogin,
    environments: environments.map(toApiEnvironment),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A variable as the API shows it: a secret's value is never answered, whoever asks. */
export function toApiVariable(row: ProjectVariableRow): Variable {
  return {
    id: row.id,
    project_id: row.project_id,
    environment_id: row.environment_id,
    name: row.name,
    secret: row.secret,
    value: row.secret ? null : row.value,
    updated_at: row.updated_at.toISOString(),
  };
}

export function toApiSuite({ suite, versions }: SuiteWithVersions): SavedSuite {
  return {
    id: suite.id,
    project_id: suite.project_id,
    name: suite.name,
    version: suite.version,
    test_cases: suite.test_cases as TestCase[],
    retries: suite.retries,
    recording: {
      trace: TracePolicySchema.catch('on-failure').parse(suite.trace_policy),
      video: suite.record_video,
    },
    visual_each_case: suite.visual_each_case,
    versions: versions.map((version) => ({
      version: version.version,
      saved_by: version.saved_by,
      saved_at: version.saved_at.toISOString(),
      change: version.change,
      test_count: version.test_count,
    })),
    created_at: suite.created_at.toISOString(),
    updated_at: suite.updated_at.toISOString(),
  };
}

export function toProjectRun(row: TestRunRow): ProjectRun {
  return {
    id: row.id,
    status: row.status,
    test_suite_name: row.test_suite_name,
    environment_id: row.environment_id,
    environment_name: row.environment_name,
    suite_id: row.suite_id,
    suite_version: row.suite_version,
    total_tests: row.total_tests,
    passed_tests: row.passed_tests,
    failed_tests: row.failed_tests,
    flaky_tests: row.flaky_tests,
    trigger: row.trigger,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
  };
}
