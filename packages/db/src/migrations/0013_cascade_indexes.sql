-- Deleting a run (retention, docs/HISTORY.md#retention) goes through every foreign key that points at
-- it: PostgreSQL runs, per deleted row, `DELETE … WHERE test_run_id = $1` (ON DELETE CASCADE) or
-- `UPDATE … SET x = NULL WHERE x = $1` (ON DELETE SET NULL) on each referencing table. A referencing
-- column without an index of its own makes that a scan of the whole table per deleted row. Already
-- indexed: test_results (test_results_run_idx), screenshots (screenshots_run_idx), model_usage
-- (model_usage_run_idx), conversation_messages (conversation_messages_conversation_idx). Not yet:

-- One delivery per notified run: 60,000 runs with a webhook, and one batch of 100 runs read them all
-- 100 times.
CREATE INDEX webhook_deliveries_run_idx ON webhook_deliveries (test_run_id) WHERE test_run_id IS NOT NULL;
-- A schedule names its last run.
CREATE INDEX schedules_last_run_idx ON schedules (last_run_id) WHERE last_run_id IS NOT NULL;
-- Retention deletes unused design uploads (ON DELETE SET NULL here), and asks per upload whether a
-- comparison was made from it.
CREATE INDEX comparisons_file_idx ON comparisons (file_id) WHERE file_id IS NOT NULL;

-- Whether a sweep removed everything older than its cutoff, or stopped at its time budget
-- (RETENTION_SWEEP_BUDGET_MS) and left the rest to the next sweep.
ALTER TABLE retention_sweeps ADD COLUMN complete boolean NOT NULL DEFAULT true;
