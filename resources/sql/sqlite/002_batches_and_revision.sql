-- Hourglass schema, version 2.
-- Indexes for the runs view's sort orders.
-- Runs of one backfill form a batch that the engine admits in id order, at most
-- batch_parallel at a time (0: not limited).
-- definition_revision counts changes to what the engine schedules (chains, tasks, their
-- dependencies, schedules): a running engine reloads when it moves, so an edit made from
-- the command line or the GUI takes effect without a restart.

ALTER TABLE run ADD COLUMN batch_id BIGINT REFERENCES run(id) ON DELETE SET NULL;
ALTER TABLE run ADD COLUMN batch_parallel INTEGER NOT NULL DEFAULT 0;
CREATE INDEX run_batch ON run(batch_id);

-- The runs view sorts in SQL and pages by keyset on (key, id): these keep every sort of a
-- store with millions of runs as quick as the newest-first list. The expressions are the
-- ones RunRepository::page orders by.
CREATE INDEX run_scheduled ON run(scheduled_for, id);
CREATE INDEX run_started ON run((COALESCE(started_at, 0)), id);
CREATE INDEX run_duration ON run((COALESCE(finished_at, started_at, 0) - COALESCE(started_at, 0)), id);

CREATE TABLE definition_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision BIGINT  NOT NULL
);
INSERT INTO definition_revision (id, revision) VALUES (1, 0);

CREATE TRIGGER chain_insert_revision AFTER INSERT ON chain
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER chain_update_revision AFTER UPDATE ON chain
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER chain_delete_revision AFTER DELETE ON chain
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER task_insert_revision AFTER INSERT ON task
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER task_update_revision AFTER UPDATE ON task
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER task_delete_revision AFTER DELETE ON task
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER dependency_insert_revision AFTER INSERT ON dependency
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER dependency_update_revision AFTER UPDATE ON dependency
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER dependency_delete_revision AFTER DELETE ON dependency
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER schedule_insert_revision AFTER INSERT ON schedule
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER schedule_update_revision AFTER UPDATE ON schedule
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;

CREATE TRIGGER schedule_delete_revision AFTER DELETE ON schedule
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;
