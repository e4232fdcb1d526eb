-- History and analytics at a year of runs (docs/HISTORY.md#rollups): the indexes the history queries'
-- plans need, the finished runs in a narrow table of their own, and the day summaries keyed by case.

-- The history list filtered by suite and a run's previous run order by (created_at, id): with the id in
-- the index the planner walks it newest first and stops at the page, whatever the statistics say,
-- instead of reading every run of the user (a sequential scan, 100-130 ms at 60,000 runs).
DROP INDEX test_runs_user_suite_created_idx;
CREATE INDEX test_runs_user_suite_created_idx ON test_runs (user_id, suite_id, created_at DESC, id DESC)
  WHERE suite_id IS NOT NULL;
-- A case's strip orders its results by (created_at, id): the same for the case's results.
DROP INDEX test_results_user_case_idx;
CREATE INDEX test_results_user_case_idx ON test_results (user_id, test_case_name, created_at DESC, id DESC);

-- One row per finished run (not pending nor running) with only what the daily figures, durations and
-- model cost read: a year of runs is 60,000 rows of test_runs (their cases, logs: 48 MB), read whole for
-- every year's chart; here they are a few MB. Days are counted in the asker's time zone, so runs are
-- kept one by one, not per day. The triggers below keep it equal to test_runs in the
-- same transaction.
CREATE TABLE analytics_runs (
  run_id uuid PRIMARY KEY REFERENCES test_runs (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  project_id uuid,
  suite_id uuid,
  -- A saved suite is one suite across its runs; an ad-hoc one is its name on its URL.
  suite_key text NOT NULL,
  -- The suite's name when it has no saved one (its run's name, else its URL).
  suite_label text NOT NULL,
  status text NOT NULL,
  total_tests integer NOT NULL,
  failed_tests integer NOT NULL,
  flaky_tests integer NOT NULL,
  execution_time_seconds double precision,
  engine text
);
CREATE INDEX analytics_runs_user_created_idx ON analytics_runs (user_id, created_at);

CREATE FUNCTION analytics_keep_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('pending', 'running') THEN
    DELETE FROM analytics_runs WHERE run_id = NEW.id;
    RETURN NULL;
  END IF;
  INSERT INTO analytics_runs (run_id, user_id, created_at, project_id, suite_id, suite_key, suite_label, status,
      total_tests, failed_tests, flaky_tests, execution_time_seconds, engine)
    VALUES (NEW.id, NEW.user_id, NEW.created_at, NEW.project_id, NEW.suite_id,
      COALESCE(NEW.suite_id::text, 'adhoc ' || NEW.url || ' ' || COALESCE(NEW.test_suite_name, '')),
      COALESCE(NULLIF(NEW.test_suite_name, ''), NEW.url), NEW.status, NEW.total_tests, NEW.failed_tests,
      NEW.flaky_tests, NEW.execution_time_seconds, NEW.engine)
    ON CONFLICT (run_id) DO UPDATE SET user_id = EXCLUDED.user_id, created_at = EXCLUDED.created_at,
      project_id = EXCLUDED.project_id, suite_id = EXCLUDED.suite_id, suite_key = EXCLUDED.suite_key,
      suite_label = EXCLUDED.suite_label, status = EXCLUDED.status, total_tests = EXCLUDED.total_tests,
      failed_tests = EXCLUDED.failed_tests, flaky_tests = EXCLUDED.flaky_tests,
      execution_time_seconds = EXCLUDED.execution_time_seconds, engine = EXCLUDED.engine;
  RETURN NULL;
END $$;

-- A running run's progress (its counters after each case, its log) changes nothing here until it ends.
CREATE TRIGGER test_runs_insert_analytics_runs AFTER INSERT ON test_runs FOR EACH ROW
  WHEN (NEW.status NOT IN ('pending', 'running')) EXECUTE FUNCTION analytics_keep_run();
CREATE TRIGGER test_runs_update_analytics_runs AFTER UPDATE ON test_runs FOR EACH ROW
  WHEN (OLD.status NOT IN ('pending', 'running') OR NEW.status NOT IN ('pending', 'running'))
  EXECUTE FUNCTION analytics_keep_run();

-- Makes the rows of one user's runs (every user's with NULL) equal to test_runs again: here for the runs
-- made before this migration, and by `npm run analytics:rebuild`. Rows already right are left as they
-- are: rewriting them all would leave as many dead rows to read past (PGlite never vacuums).
CREATE FUNCTION analytics_rebuild_runs(target uuid) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE made integer;
BEGIN
  DELETE FROM analytics_runs a WHERE (target IS NULL OR a.user_id = target) AND NOT EXISTS (
    SELECT 1 FROM test_runs r WHERE r.id = a.run_id AND r.status NOT IN ('pending', 'running'));
  INSERT INTO analytics_runs AS a (run_id, user_id, created_at, project_id, suite_id, suite_key, suite_label,
      status, total_tests, failed_tests, flaky_tests, execution_time_seconds, engine)
    SELECT id, user_id, created_at, project_id, suite_id,
      COALESCE(suite_id::text, 'adhoc ' || url || ' ' || COALESCE(test_suite_name, '')),
      COALESCE(NULLIF(test_suite_name, ''), url), status, total_tests, failed_tests, flaky_tests,
      execution_time_seconds, engine
    FROM test_runs WHERE status NOT IN ('pending', 'running') AND (target IS NULL OR user_id = target)
    ON CONFLICT (run_id) DO UPDATE SET user_id = EXCLUDED.user_id, created_at = EXCLUDED.created_at,
      project_id = EXCLUDED.project_id, suite_id = EXCLUDED.suite_id, suite_key = EXCLUDED.suite_key,
      suite_label = EXCLUDED.suite_label, status = EXCLUDED.status, total_tests = EXCLUDED.total_tests,
      failed_tests = EXCLUDED.failed_tests, flaky_tests = EXCLUDED.flaky_tests,
      execution_time_seconds = EXCLUDED.execution_time_seconds, engine = EXCLUDED.engine
    WHERE (a.user_id, a.created_at, a.project_id, a.suite_id, a.suite_key, a.suite_label, a.status, a.total_tests,
        a.failed_tests, a.flaky_tests, a.execution_time_seconds, a.engine)
      IS DISTINCT FROM (EXCLUDED.user_id, EXCLUDED.created_at, EXCLUDED.project_id, EXCLUDED.suite_id,
        EXCLUDED.suite_key, EXCLUDED.suite_label, EXCLUDED.status, EXCLUDED.total_tests, EXCLUDED.failed_tests,
        EXCLUDED.flaky_tests, EXCLUDED.execution_time_seconds, EXCLUDED.engine);
  SELECT count(*) INTO made FROM analytics_runs WHERE target IS NULL OR user_id = target;
  RETURN made;
END $$;
SELECT analytics_rebuild_runs(NULL);

-- A case's day sums keyed by one text (its project, suite and name): the slowest list reads one case's
-- passing times of a range through this index instead of scanning every case's for each case. The
-- summaries made so far are forgotten (made again by the next run's end, query, or `npm run
-- analytics:rebuild`).
DELETE FROM analytics_days;
ALTER TABLE analytics_case_days ADD COLUMN case_key text COLLATE "C" NOT NULL;
CREATE INDEX analytics_case_days_user_case_idx ON analytics_case_days (user_id, case_key, day);
