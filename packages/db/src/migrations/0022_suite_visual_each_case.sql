-- A saved suite's option to end every case with a visual check (docs/VISUAL-CHECKS.md#a-check-after-every-case):
-- each case's run gets `Verify the page looks as approved` as its last step, unless it ends with one.
-- It says how the suite runs, not what it tests, so, like the retries and the recording, changing it
-- makes no new version; the suite's own cases are not changed.
ALTER TABLE saved_suites ADD COLUMN visual_each_case boolean NOT NULL DEFAULT false;
