-- Automation: test runs, their results, and screenshots (bytes live in DATA_DIR/blobs, by SHA-256).
CREATE TABLE test_runs (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Client session ids may be local-only ('local_…'), so this is text, not a foreign key.
  session_id text,
  url text NOT NULL,
  target_url text,
  test_suite_name text,
  test_mode text,
  command text,
  engine text,
  test_cases jsonb NOT NULL DEFAULT '[]'::jsonb,
  status text NOT NULL DEFAULT 'pending',
  started_at timestamptz,
  completed_at timestamptz,
  execution_time_seconds double precision,
  total_tests integer NOT NULL DEFAULT 0,
  passed_tests integer NOT NULL DEFAULT 0,
  failed_tests integer NOT NULL DEFAULT 0,
  execution_log jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX test_runs_user_created_idx ON test_runs (user_id, created_at DESC);
CREATE INDEX test_runs_status_idx ON test_runs (status);

CREATE TABLE test_results (
  id uuid PRIMARY KEY,
  test_run_id uuid NOT NULL REFERENCES test_runs (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  test_case_id text,
  test_case_name text NOT NULL,
  status text NOT NULL,
  execution_time double precision,
  error_message text,
  steps jsonb NOT NULL DEFAULT '[]'::jsonb,
  logs jsonb NOT NULL DEFAULT '[]'::jsonb,
  screenshots jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX test_results_run_idx ON test_results (test_run_id, created_at);

CREATE TABLE screenshots (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  test_run_id uuid REFERENCES test_runs (id) ON DELETE CASCADE,
  test_case_name text NOT NULL,
  step_name text,
  step_index integer NOT NULL DEFAULT 0,
  sha256 text NOT NULL,
  mime text NOT NULL,
  bytes integer NOT NULL,
  width integer,
  height integer,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX screenshots_run_idx ON screenshots (test_run_id, test_case_name, step_index);
