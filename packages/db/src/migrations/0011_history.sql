-- Test history and analytics (docs/HISTORY.md): retries and flaky results, the indexes the history
-- list and the analytics queries read, and the retention sweep's last report.

-- A saved suite's retries per case (like Playwright's `retries`): a case that fails is run again up to
-- this many times; one that then passes is recorded as 'flaky', not 'passed'.
ALTER TABLE saved_suites ADD COLUMN retries integer NOT NULL DEFAULT 0;

-- How many times the case ran (1 + retries used); a run counts its flaky cases apart from its passes.
ALTER TABLE test_results ADD COLUMN attempts integer NOT NULL DEFAULT 1;
ALTER TABLE test_runs ADD COLUMN flaky_tests integer NOT NULL DEFAULT 0;

-- The history list pages by (created_at, id) newest first: keyset pagination reads this index only.
CREATE INDEX test_runs_user_created_id_idx ON test_runs (user_id, created_at DESC, id DESC);
-- A run is compared with the previous run of its suite; analytics group a suite's runs.
CREATE INDEX test_runs_user_suite_created_idx ON test_runs (user_id, suite_id, created_at DESC)
  WHERE suite_id IS NOT NULL;
-- A case's strip of recent results and its failure messages.
CREATE INDEX test_results_user_case_idx ON test_results (user_id, test_case_name, created_at DESC);
CREATE INDEX comparisons_user_created_idx ON comparisons (user_id, created_at DESC, id DESC);
-- Retention removes what is older than the period, across every user.
CREATE INDEX test_runs_created_idx ON test_runs (created_at);
CREATE INDEX comparisons_created_idx ON comparisons (created_at);

-- What each retention sweep removed (Settings shows the last one).
CREATE TABLE retention_sweeps (
  id uuid PRIMARY KEY,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  cutoff timestamptz NOT NULL,
  runs_deleted integer NOT NULL DEFAULT 0,
  comparisons_deleted integer NOT NULL DEFAULT 0,
  blobs_deleted integer NOT NULL DEFAULT 0,
  bytes_freed bigint NOT NULL DEFAULT 0
);

-- Deleting a run sets model_usage.test_run_id to NULL, and analytics joins model calls to runs: without
-- an index each deleted or joined run read the whole table (15 s for one project's cost at 20,000 runs).
CREATE INDEX model_usage_run_idx ON model_usage (test_run_id) WHERE test_run_id IS NOT NULL;
-- Retention asks, for each stored file, whether a screenshot row still names it.
CREATE INDEX screenshots_sha256_idx ON screenshots (sha256);
