-- Why a case failed, and what it left to show it (docs/DIAGNOSTICS.md): a label and a fingerprint on each
-- failed result, its traces, video and console/network kept as blobs, and each saved suite's recording
-- policy.

-- FAILURE_KINDS (packages/protocol/src/diagnostics.ts); null for a case that passed.
ALTER TABLE test_results ADD COLUMN failure_kind text;
ALTER TABLE test_results ADD COLUMN failure_evidence text;
-- The same failure's key across cases and runs (16 hex characters); the folded text it was made from.
ALTER TABLE test_results ADD COLUMN failure_fingerprint text;
ALTER TABLE test_results ADD COLUMN failure_summary text;
ALTER TABLE test_results ADD COLUMN failure_step integer;
-- Counts of its console and network entries ({console, console_errors, requests, failed_requests}).
ALTER TABLE test_results ADD COLUMN diagnostics jsonb;
-- "Seen in N runs": a project's results by fingerprint, newest first (joined to their runs' project).
CREATE INDEX test_results_user_fingerprint_idx ON test_results (user_id, failure_fingerprint, created_at DESC)
  WHERE failure_fingerprint IS NOT NULL;

-- One stored file of one attempt at a case: its Playwright trace, its video, its console and network.
-- The bytes are a blob (BlobStore, by sha256) like screenshots', counted in the owner's quota and
-- removed with the run.
CREATE TABLE case_artifacts (
  id uuid PRIMARY KEY,
  -- The owning organization (named user_id like every owner column: 0015_organizations.sql).
  user_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  test_run_id uuid NOT NULL REFERENCES test_runs (id) ON DELETE CASCADE,
  test_case_name text NOT NULL,
  attempt integer NOT NULL DEFAULT 1,
  -- CASE_ARTIFACT_KINDS: trace, video, diagnostics.
  kind text NOT NULL CHECK (kind IN ('trace', 'video', 'diagnostics')),
  sha256 text NOT NULL,
  mime text NOT NULL,
  bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_artifacts_run_idx ON case_artifacts (test_run_id, test_case_name, attempt);
CREATE INDEX case_artifacts_user_idx ON case_artifacts (user_id) INCLUDE (bytes);
CREATE INDEX case_artifacts_sha256_idx ON case_artifacts (sha256);

-- TRACE_POLICIES, and whether failed cases keep a video.
ALTER TABLE saved_suites ADD COLUMN trace_policy text NOT NULL DEFAULT 'on-failure'
  CHECK (trace_policy IN ('on-failure', 'always', 'off'));
ALTER TABLE saved_suites ADD COLUMN record_video boolean NOT NULL DEFAULT false;
