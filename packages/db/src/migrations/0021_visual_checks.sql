-- Visual checks (docs/VISUAL-CHECKS.md): `Verify the page looks as approved` compares a settled
-- capture with the check's approved baseline. A baseline is kept per project, environment, branch,
-- case, check, viewport and browser; approving a run's capture adds the key's newest row, so the rows
-- of a key are its history (the newest is the one compared with, an earlier one is restored by copying
-- it as the newest). No retention while approved: baselines go only with their project.
CREATE TABLE visual_baselines (
  id uuid PRIMARY KEY,
  -- The owning organization (named user_id like every owner column: 0015_organizations.sql).
  user_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  -- '' is the project's default branch; a branch's own baselines are compared with first.
  branch text NOT NULL DEFAULT '',
  case_name text NOT NULL,
  check_name text NOT NULL,
  viewport_width integer NOT NULL,
  viewport_height integer NOT NULL,
  browser text NOT NULL,
  -- The approved capture (a blob under DATA_DIR/blobs), its size in pixels, and its bytes (counted in
  -- the organization's storage, MAX_STORED_BYTES_PER_USER).
  sha256 text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  bytes integer NOT NULL DEFAULT 0,
  -- Masks in the capture's coordinates ({x, y, width, height}[]): what moved by itself when it was
  -- taken, and the ones users added (kept apart: a user's masks carry over to the next approval).
  moving_masks jsonb NOT NULL DEFAULT '[]',
  user_masks jsonb NOT NULL DEFAULT '[]',
  -- Masks users named by an element's text or role ({text?, role?}[]), found on the page at each check.
  element_masks jsonb NOT NULL DEFAULT '[]',
  -- Share (0-1) of the pixels that may differ before the check counts as changed.
  threshold double precision NOT NULL DEFAULT 0,
  -- Who approved it (their username, kept as text like a suite version's saved_by), from which run's
  -- check, or which earlier baseline it restores or promotes.
  approved_by text NOT NULL,
  source_run_id uuid REFERENCES test_runs (id) ON DELETE SET NULL,
  copied_from uuid REFERENCES visual_baselines (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- A key's newest baseline, and its history newest first.
CREATE INDEX visual_baselines_key_idx ON visual_baselines
  (project_id, environment_id, branch, case_name, check_name, viewport_width, viewport_height, browser, created_at DESC);
CREATE INDEX visual_baselines_user_idx ON visual_baselines (user_id);
CREATE INDEX visual_baselines_environment_idx ON visual_baselines (environment_id);
CREATE INDEX visual_baselines_run_idx ON visual_baselines (source_run_id) WHERE source_run_id IS NOT NULL;
CREATE INDEX visual_baselines_copied_idx ON visual_baselines (copied_from) WHERE copied_from IS NOT NULL;
-- Blobs still named (the retention sweep's question).
CREATE INDEX visual_baselines_sha_idx ON visual_baselines (sha256);

-- A run's visual checks: each capture with its verdict (`same`, `changed`, `new`) and, for the last two,
-- its review (`pending` until approved or rejected). Rows go with their run.
CREATE TABLE visual_checks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  test_run_id uuid NOT NULL REFERENCES test_runs (id) ON DELETE CASCADE,
  -- The key its baseline is kept under (the environment's id kept after it goes, like the run's).
  project_id uuid NOT NULL,
  environment_id uuid NOT NULL,
  branch text NOT NULL DEFAULT '',
  case_name text NOT NULL,
  check_name text NOT NULL,
  viewport_width integer NOT NULL,
  viewport_height integer NOT NULL,
  browser text NOT NULL,
  -- The case's place in the run's cases (the Review lists checks in case and step order).
  case_index integer NOT NULL DEFAULT 0,
  region text,
  step_index integer NOT NULL,
  status text NOT NULL CHECK (status IN ('same', 'changed', 'new')),
  -- VisualIssueSchema[] (packages/protocol/src/visual.ts), largest first.
  issues jsonb NOT NULL DEFAULT '[]',
  message text NOT NULL,
  -- This run's capture and, when changed, the difference picture (blobs); a check that looked as
  -- approved names its baseline's picture. The bytes of the pictures it stored itself (0 for none), as
  -- the storage quota counts them.
  sha256 text NOT NULL,
  diff_sha256 text,
  width integer NOT NULL,
  height integer NOT NULL,
  bytes integer NOT NULL DEFAULT 0,
  diff_bytes integer NOT NULL DEFAULT 0,
  -- What moved by itself between this run's captures (masked for this check, shown in the review).
  moving_masks jsonb NOT NULL DEFAULT '[]',
  -- The URL the check was taken on (secrets hidden).
  url text NOT NULL DEFAULT '',
  -- The baseline it was compared with (null for a new check, or once that baseline's project goes).
  baseline_id uuid REFERENCES visual_baselines (id) ON DELETE SET NULL,
  review text NOT NULL CHECK (review IN ('none', 'pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  -- Why it was rejected, in the reviewer's words; and the baseline an approval made.
  decision_reason text,
  made_baseline_id uuid REFERENCES visual_baselines (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX visual_checks_run_idx ON visual_checks (test_run_id, created_at);
CREATE INDEX visual_checks_user_idx ON visual_checks (user_id);
CREATE INDEX visual_checks_baseline_idx ON visual_checks (baseline_id) WHERE baseline_id IS NOT NULL;
CREATE INDEX visual_checks_made_idx ON visual_checks (made_baseline_id) WHERE made_baseline_id IS NOT NULL;
CREATE INDEX visual_checks_sha_idx ON visual_checks (sha256);
CREATE INDEX visual_checks_diff_sha_idx ON visual_checks (diff_sha256) WHERE diff_sha256 IS NOT NULL;

-- A run names its branch (`--branch`, the run API's `branch`), and says how many of its visual checks
-- wait for review: a run with any is 'changes to review'.
ALTER TABLE test_runs
  ADD COLUMN branch text,
  ADD COLUMN visual_to_review integer NOT NULL DEFAULT 0;
