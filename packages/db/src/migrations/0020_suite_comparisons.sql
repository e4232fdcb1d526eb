-- Regenerate and compare (docs/REPAIRS.md): a generation on an environment, its cases matched to a saved
-- suite's by the behaviour they test, kept for review as added, removed, changed and unchanged cases.
-- Nothing is saved to the suite until changes are accepted (one new version); the row goes with its suite.
CREATE TABLE suite_comparisons (
  id uuid PRIMARY KEY,
  -- The owning organization (named user_id like every owner column: 0015_organizations.sql).
  user_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The suite's project (the suite's own key deletes the row with the project).
  project_id uuid NOT NULL,
  suite_id uuid NOT NULL REFERENCES saved_suites (id) ON DELETE CASCADE,
  -- The saved version compared with (an accept saves over it, or is refused as a conflict).
  suite_version integer NOT NULL,
  -- The environment generated on; its id is kept as text after the environment goes.
  environment_id uuid NOT NULL,
  engine text NOT NULL,
  -- SuiteCaseChangeSchema[] (packages/protocol/src/repairs.ts), URLs relative like a saved suite's.
  changes jsonb NOT NULL DEFAULT '[]',
  -- Who asked (their username, kept as text like a suite version's saved_by).
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The version the last accept saved, null until one did.
  accepted_version integer
);
-- A suite's comparisons, newest first (and the suite's deletion).
CREATE INDEX suite_comparisons_suite_idx ON suite_comparisons (suite_id, created_at DESC);
CREATE INDEX suite_comparisons_user_idx ON suite_comparisons (user_id);
