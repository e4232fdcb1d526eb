-- When the app changes (docs/REPAIRS.md): a failed case of a saved suite's run gets a verdict, a repair
-- (its steps before and after, proved on the current app), a repair that weakens an assertion, or a bug.
-- Proposals wait for review: approving saves a new suite version, rejecting keeps the same repair from
-- being proposed again for the same page state. One row per verdict, going with its run and its suite.
CREATE TABLE case_repairs (
  id uuid PRIMARY KEY,
  -- The owning organization (named user_id like every owner column: 0015_organizations.sql).
  user_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  test_run_id uuid NOT NULL REFERENCES test_runs (id) ON DELETE CASCADE,
  -- The suite's project (the suite's own key deletes the row with the project).
  project_id uuid NOT NULL,
  suite_id uuid NOT NULL REFERENCES saved_suites (id) ON DELETE CASCADE,
  -- The version the run ran (the one repaired), and the case's name and place in it.
  suite_version integer NOT NULL,
  case_name text NOT NULL,
  case_index integer NOT NULL,
  -- The failed case's result row: no key of its own, it goes with the run as this row does.
  result_id uuid,
  verdict text NOT NULL CHECK (verdict IN ('repair', 'weakens', 'bug')),
  status text NOT NULL CHECK (status IN ('proposed', 'approved', 'rejected', 'superseded', 'none')),
  step_index integer,
  -- Step lines as saved and as repaired, their diff, the weakenings (WeakeningSchema) and the evidence.
  steps_before jsonb NOT NULL DEFAULT '[]',
  steps_after jsonb NOT NULL DEFAULT '[]',
  diff jsonb NOT NULL DEFAULT '[]',
  weakenings jsonb NOT NULL DEFAULT '[]',
  evidence jsonb NOT NULL,
  -- The engine's key of the failed step's page (a rejection is matched by it); null for some bugs.
  page_state text,
  -- The last passing run's screenshot of the step (another run's: cleared when that run goes), and the proof's.
  before_screenshot_id uuid REFERENCES screenshots (id) ON DELETE SET NULL,
  after_screenshot_id uuid REFERENCES screenshots (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Who decided it (their username, kept as text like a suite version's saved_by), when, why, and the
  -- version an approval saved.
  decided_by text,
  decided_at timestamptz,
  decision_reason text,
  saved_version integer
);
-- A run's repairs in case order (and the run's deletion).
CREATE INDEX case_repairs_run_idx ON case_repairs (test_run_id, case_index);
-- A suite's repairs, a case's rejected ones (and the suite's deletion).
CREATE INDEX case_repairs_suite_idx ON case_repairs (suite_id, case_name, created_at DESC);
-- Deleting a screenshot (its run) clears the ids naming it (0013_cascade_indexes.sql).
CREATE INDEX case_repairs_before_shot_idx ON case_repairs (before_screenshot_id)
  WHERE before_screenshot_id IS NOT NULL;
CREATE INDEX case_repairs_after_shot_idx ON case_repairs (after_screenshot_id)
  WHERE after_screenshot_id IS NOT NULL;
CREATE INDEX case_repairs_user_idx ON case_repairs (user_id);
