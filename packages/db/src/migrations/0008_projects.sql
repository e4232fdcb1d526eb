-- Projects (docs/PROJECTS.md): a site under test with its environments, the variables and secrets its
-- steps name as {{NAME}}, the login Argus signs in with, and its saved suites with their versions.
-- Every row carries its owner, and every read is owner-scoped.

CREATE TABLE projects (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- web | mobile | api
  kind text NOT NULL DEFAULT 'web',
  -- ProjectLoginSchema (packages/protocol/src/projects.ts); secrets are named there, never held.
  login jsonb NOT NULL DEFAULT '{"mode":"none"}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The target of the child tables' (project_id, user_id) keys: a child row cannot name one owner's
  -- project and carry another owner's id.
  UNIQUE (id, user_id)
);
-- The sidebar's list: a user's projects, last changed first.
CREATE INDEX projects_user_updated_idx ON projects (user_id, updated_at DESC);

CREATE TABLE environments (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  name text NOT NULL,
  base_url text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (project_id, user_id) REFERENCES projects (id, user_id) ON DELETE CASCADE,
  -- The target of project_variables' (environment_id, project_id) key.
  UNIQUE (id, project_id)
);
-- 'Staging' and 'staging' would be one environment to whoever picks it from a list.
CREATE UNIQUE INDEX environments_project_name_key ON environments (project_id, lower(name));
-- At most one default per project; the server keeps it exactly one (apps/server/src/projects).
CREATE UNIQUE INDEX environments_project_default_key ON environments (project_id) WHERE is_default;

CREATE TABLE project_variables (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  -- NULL: the project's own value, which an environment's value of the same name overrides.
  environment_id uuid,
  name text NOT NULL,
  secret boolean NOT NULL DEFAULT false,
  -- A plain variable's value, shown to its owner.
  value text,
  -- A secret's value: AES-256-GCM, base64 "iv.tag.ciphertext", bound to its project, environment and
  -- name (apps/server/src/services/secrets.ts); never answered by any API.
  value_enc text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (project_id, user_id) REFERENCES projects (id, user_id) ON DELETE CASCADE,
  -- An environment of the same project only (a NULL environment_id is not checked: project-level).
  FOREIGN KEY (environment_id, project_id) REFERENCES environments (id, project_id) ON DELETE CASCADE,
  -- A secret never has a clear value, a variable never a ciphertext.
  CHECK (
    (secret AND value IS NULL AND value_enc IS NOT NULL)
    OR (NOT secret AND value IS NOT NULL AND value_enc IS NULL)
  )
);
-- One value per name and scope; the project's own scope is the nil uuid.
CREATE UNIQUE INDEX project_variables_scope_name_key ON project_variables
  (project_id, coalesce(environment_id, '00000000-0000-0000-0000-000000000000'::uuid), name);

CREATE TABLE saved_suites (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  name text NOT NULL,
  -- The latest saved_suite_versions.version, whose test_cases these are.
  version integer NOT NULL DEFAULT 1,
  -- TestCaseSchema's output, URLs relative to the environment where they were.
  test_cases jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (project_id, user_id) REFERENCES projects (id, user_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX saved_suites_project_name_key ON saved_suites (project_id, lower(name));

-- Every save of a suite, kept: who saved which cases when, and what changed.
CREATE TABLE saved_suite_versions (
  suite_id uuid NOT NULL REFERENCES saved_suites (id) ON DELETE CASCADE,
  version integer NOT NULL,
  test_cases jsonb NOT NULL,
  -- The saver's username at the time (a name to show, not a key).
  saved_by text NOT NULL,
  change text NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (suite_id, version)
);

-- A run started on a project's environment, or of a saved suite, says so; the environment's name is
-- copied, so the run still reads right after the environment is renamed or deleted.
ALTER TABLE test_runs
  ADD COLUMN project_id uuid REFERENCES projects (id) ON DELETE SET NULL,
  ADD COLUMN environment_id uuid REFERENCES environments (id) ON DELETE SET NULL,
  ADD COLUMN environment_name text,
  ADD COLUMN suite_id uuid REFERENCES saved_suites (id) ON DELETE SET NULL,
  ADD COLUMN suite_version integer;
-- A project's page lists its latest runs.
CREATE INDEX test_runs_user_project_created_idx ON test_runs (user_id, project_id, created_at DESC);
