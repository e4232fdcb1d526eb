-- Schedules of saved suites and a project's webhooks (docs/SCHEDULES.md).

-- A saved suite run on one environment at the times a cron expression gives, in a time zone. Every
-- server process ticks over the due schedules; a due time is claimed by moving next_run_at on with a
-- conditional UPDATE (… WHERE id = $id AND next_run_at = $due), so exactly one process starts its run.
CREATE TABLE schedules (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  suite_id uuid NOT NULL REFERENCES saved_suites (id) ON DELETE CASCADE,
  environment_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  cron text NOT NULL,
  timezone text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- The next due time (null while disabled).
  next_run_at timestamptz,
  -- A due time that found the user's automation busy is tried again at retry_at, claimed the same way,
  -- until retry_until; then it is recorded as skipped.
  retry_at timestamptz,
  retry_until timestamptz,
  -- The last due time and what came of it: started | skipped | error (last_message says why).
  last_run_at timestamptz,
  last_run_id uuid REFERENCES test_runs (id) ON DELETE SET NULL,
  last_outcome text,
  last_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_project_idx ON schedules (user_id, project_id, created_at);
CREATE INDEX schedules_due_idx ON schedules (next_run_at) WHERE enabled;
CREATE INDEX schedules_retry_idx ON schedules (retry_at) WHERE retry_at IS NOT NULL;

-- Where a project's notifications go. The signing secret is encrypted with the server's secrets key
-- (bound to the webhook's id) and shown once, when it is made.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  url text NOT NULL,
  -- generic | slack | teams
  format text NOT NULL,
  -- any of failure | recovery | always
  events jsonb NOT NULL,
  secret_enc text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_project_idx ON webhooks (user_id, project_id, created_at);

-- One notification to one webhook: the body as first written (every attempt sends the same bytes,
-- signed again with the attempt's time), and where its attempts stand.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  test_run_id uuid REFERENCES test_runs (id) ON DELETE SET NULL,
  -- failure | recovery | success | test
  event text NOT NULL,
  body text NOT NULL,
  -- pending | delivering | delivered | failed
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  response_code integer,
  last_error text,
  -- pending: when the next attempt is due; delivering: when the attempt's claim lapses (a process that
  -- died mid-attempt leaves it to another).
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_project_idx ON webhook_deliveries (user_id, project_id, created_at DESC);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'delivering');
