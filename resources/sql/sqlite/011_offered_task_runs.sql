-- Hourglass schema, version 11.
-- Offered task runs (011_offered_task_runs.sql on PostgreSQL) need engines that share a
-- store; a SQLite store has one engine. The columns are here so both schemas read alike.
ALTER TABLE task_run ADD COLUMN offered_at INTEGER;
ALTER TABLE task_run ADD COLUMN worker_session INTEGER;
ALTER TABLE task_run ADD COLUMN worker_epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE task_run ADD COLUMN worker_name TEXT NOT NULL DEFAULT '';
ALTER TABLE task_run ADD COLUMN stop_request TEXT NOT NULL DEFAULT '';
