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

CREATE FUNCTION hourglass_bump_definition_revision() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; RETURN NULL; END';

CREATE TRIGGER chain_revision AFTER INSERT OR UPDATE OR DELETE ON chain
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();

CREATE TRIGGER task_revision AFTER INSERT OR UPDATE OR DELETE ON task
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();

CREATE TRIGGER dependency_revision AFTER INSERT OR UPDATE OR DELETE ON dependency
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();

CREATE TRIGGER schedule_revision AFTER INSERT OR UPDATE OR DELETE ON schedule
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();
