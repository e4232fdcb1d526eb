-- Day summaries of case results for analytics (docs/HISTORY.md#analytics). The slowest tests, failing
-- steps and flaky tests of a range were computed from every case result in it: 60,000-120,000 rows,
-- sorted, 0.4-0.9 s at 20,000 runs. A finished UTC day's results are summed once per suite version and
-- case (and per failing step); a range then reads the summaries of its whole days and the results of
-- its partial days only. Summaries are made on demand and forgotten by the triggers below whenever a
-- result or run of their day changes, so they can never be stale; the next query makes them again.

-- A UTC day whose summaries exist. Deleting it deletes them.
CREATE TABLE analytics_days (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day date NOT NULL,
  made_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, day)
);

-- Per day, project, suite (a saved suite's id and version, or an ad-hoc suite's URL and name) and case:
-- what the flaky list needs to chain days (first and last verdicts, flips inside the day, the newest
-- runs that flipped or passed on retry) and the slowest list's passing times.
CREATE TABLE analytics_case_days (
  user_id uuid NOT NULL,
  day date NOT NULL,
  project_id uuid,
  suite_id uuid,
  url text COLLATE "C",
  suite_name text COLLATE "C",
  name text COLLATE "C" NOT NULL,
  suite_version integer,
  results integer NOT NULL,
  retried_passes integer NOT NULL,
  inner_flips integer NOT NULL,
  first_pass boolean NOT NULL,
  first_retried boolean NOT NULL,
  first_run_id uuid NOT NULL,
  last_pass boolean NOT NULL,
  -- Newest first, at most 10.
  flip_run_ids text[] NOT NULL,
  pass_times double precision[] NOT NULL,
  max_pass_time double precision,
  FOREIGN KEY (user_id, day) REFERENCES analytics_days (user_id, day) ON DELETE CASCADE
);
CREATE INDEX analytics_case_days_user_day_idx ON analytics_case_days (user_id, day);

-- Per day, project, failing step (the first step in error of a failed case) and case.
CREATE TABLE analytics_step_days (
  user_id uuid NOT NULL,
  day date NOT NULL,
  project_id uuid,
  step text NOT NULL,
  name text COLLATE "C" NOT NULL,
  failures integer NOT NULL,
  last_at timestamptz NOT NULL,
  last_run_id uuid NOT NULL,
  FOREIGN KEY (user_id, day) REFERENCES analytics_days (user_id, day) ON DELETE CASCADE
);
CREATE INDEX analytics_step_days_user_day_idx ON analytics_step_days (user_id, day);

-- Forgetting a day takes the user's analytics lock shared; making summaries takes it exclusive. A
-- result written while a day is being summed thus waits for the summary to commit and then forgets it,
-- instead of committing unseen beside a summary that misses it.
CREATE FUNCTION analytics_forget_result_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_advisory_xact_lock_shared(727172002, hashtext(u::text))
      FROM (SELECT DISTINCT user_id AS u FROM new_rows) x;
    DELETE FROM analytics_days d
      USING (SELECT DISTINCT r.user_id, (r.created_at AT TIME ZONE 'UTC')::date AS day
        FROM new_rows n JOIN test_runs r ON r.id = n.test_run_id) x
      WHERE d.user_id = x.user_id AND d.day = x.day;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(727172002, hashtext(u::text))
      FROM (SELECT DISTINCT user_id AS u FROM old_rows) x;
    DELETE FROM analytics_days d
      USING (SELECT DISTINCT r.user_id, (r.created_at AT TIME ZONE 'UTC')::date AS day
        FROM old_rows o JOIN test_runs r ON r.id = o.test_run_id) x
      WHERE d.user_id = x.user_id AND d.day = x.day;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION analytics_forget_run_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM pg_advisory_xact_lock_shared(727172002, hashtext(NEW.user_id::text));
    DELETE FROM analytics_days d WHERE d.user_id IN (OLD.user_id, NEW.user_id)
      AND d.day IN ((OLD.created_at AT TIME ZONE 'UTC')::date, (NEW.created_at AT TIME ZONE 'UTC')::date);
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(727172002, hashtext(u::text))
    FROM (SELECT DISTINCT user_id AS u FROM old_rows) x;
  DELETE FROM analytics_days d
    USING (SELECT DISTINCT user_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM old_rows) x
    WHERE d.user_id = x.user_id AND d.day = x.day;
  RETURN NULL;
END $$;

-- Bulk writes (the history seed, retention) run the statement triggers once per statement.
CREATE TRIGGER test_results_insert_analytics AFTER INSERT ON test_results
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_forget_result_days();
CREATE TRIGGER test_results_delete_analytics AFTER DELETE ON test_results
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_forget_result_days();
CREATE TRIGGER test_results_update_analytics AFTER UPDATE ON test_results
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION analytics_forget_result_days();
CREATE TRIGGER test_runs_delete_analytics AFTER DELETE ON test_runs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_forget_run_days();
-- A run's progress updates change none of these; the condition is checked without calling the function.
CREATE TRIGGER test_runs_update_analytics AFTER UPDATE ON test_runs FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.suite_id IS DISTINCT FROM NEW.suite_id
    OR OLD.suite_version IS DISTINCT FROM NEW.suite_version OR OLD.url IS DISTINCT FROM NEW.url
    OR OLD.test_suite_name IS DISTINCT FROM NEW.test_suite_name)
  EXECUTE FUNCTION analytics_forget_run_days();
