-- The audit log (docs/ORGANIZATIONS.md#audit-log): who did what in an organization, when and from where.
-- Append-only: no API edits or deletes a row, and UPDATE, DELETE and TRUNCATE raise (the triggers below).
-- Rows leave only by retention (AUDIT_RETENTION_DAYS): a DELETE of the oldest, in small batches, in a
-- transaction that says it is retention's.
--
-- No foreign keys: a row outlives what it names (a removed member, a deleted project, an organization
-- gone), so ids are kept as they were and names beside them (actor_label, target).
CREATE TABLE audit_log (
  -- Ever increasing: the list's order (newest first) and its keyset.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The organization it happened in; null for what belongs to none (a failed sign-in of an unknown name).
  org_id uuid,
  -- The user who acted; null for a failed sign-in of an unknown name or a service token.
  actor uuid,
  -- Their name (and email) as they were then.
  actor_label text NOT NULL,
  -- AUDIT_ACTIONS (packages/protocol/src/audit.ts).
  action text NOT NULL,
  project_id uuid,
  -- What it acted on, by name (a suite's, a secret's, a token's).
  target text,
  -- A few small facts; never a secret's value.
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The Audit screen's list and filters, each newest first within one organization.
CREATE INDEX audit_log_org_idx ON audit_log (org_id, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (org_id, actor, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (org_id, action, id DESC);
CREATE INDEX audit_log_project_idx ON audit_log (org_id, project_id, id DESC) WHERE project_id IS NOT NULL;
CREATE INDEX audit_log_created_idx ON audit_log (org_id, created_at);
-- Retention deletes the oldest across every organization.
CREATE INDEX audit_log_retention_idx ON audit_log (created_at);

-- A row, once written, is never changed: UPDATE raises, whoever asks.
CREATE FUNCTION audit_log_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log rows cannot be changed' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_update();

-- Nor deleted, but by retention: its transaction says so first (SET LOCAL argus.audit_retention = 'on',
-- audit-log.ts). A guard against a stray DELETE, not against whoever owns the database.
CREATE FUNCTION audit_log_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('argus.audit_retention', true), '') <> 'on' THEN
    RAISE EXCEPTION 'audit_log rows are removed by retention only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_delete();
-- Nor emptied at once.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_update();
