-- Hourglass schema, version 3.
-- Many engines on one store. A run belongs to the engine session that claimed it
-- (owner_session, owner_epoch); every write about a claimed run checks both, so an engine
-- whose session was taken over cannot overwrite what the new owner did (fencing). Each
-- registration draws a new epoch from engine_epoch, so epochs only grow.
ALTER TABLE run ADD COLUMN owner_session BIGINT;
ALTER TABLE run ADD COLUMN owner_epoch BIGINT NOT NULL DEFAULT 0;
CREATE INDEX run_owner ON run(owner_session, state);
-- What any engine may claim: queued runs nobody owns, oldest first.
CREATE INDEX run_claimable ON run(id) WHERE state = 'queued' AND owner_session IS NULL;

-- Retention per chain (0: no limit); failed runs may follow limits of their own.
ALTER TABLE chain ADD COLUMN keep_runs INTEGER NOT NULL DEFAULT 0 CHECK (keep_runs >= 0);
ALTER TABLE chain ADD COLUMN keep_days INTEGER NOT NULL DEFAULT 0 CHECK (keep_days >= 0);
ALTER TABLE chain ADD COLUMN keep_failed_runs INTEGER NOT NULL DEFAULT 0 CHECK (keep_failed_runs >= 0);
ALTER TABLE chain ADD COLUMN keep_failed_days INTEGER NOT NULL DEFAULT 0 CHECK (keep_failed_days >= 0);

ALTER TABLE engine_session ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;

CREATE TABLE engine_epoch (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value BIGINT  NOT NULL
);
INSERT INTO engine_epoch (id, value) VALUES (1, 0);

-- Moving a node on the canvas is no change for the engine: only the columns it runs on count.
DROP TRIGGER task_update_revision;
CREATE TRIGGER task_update_revision AFTER UPDATE OF chain_id, name, kind, command, arguments, working_dir, environment, connection_id, ignore_error, autonomous, timeout_s, max_retries, retry_delay_s, retry_backoff, priority ON task
BEGIN UPDATE definition_revision SET revision = revision + 1 WHERE id = 1; END;
