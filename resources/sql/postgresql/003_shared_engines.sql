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

-- Every engine and window LISTENs on channel 'hourglass': a run queued (new, or given back by
-- a takeover), a command, or a definition change wakes them at once; polling stays only as
-- a slow safety net. Statement triggers, so a batch of inserts makes one notification.
CREATE FUNCTION hourglass_notify() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN PERFORM pg_notify(''hourglass'', TG_ARGV[0]); RETURN NULL; END';

CREATE TRIGGER run_queued_notify AFTER INSERT ON run
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_notify('run');

CREATE TRIGGER run_released_notify AFTER UPDATE OF owner_session ON run
FOR EACH ROW WHEN (NEW.owner_session IS NULL AND NEW.state = 'queued')
EXECUTE FUNCTION hourglass_notify('run');

CREATE TRIGGER command_notify AFTER INSERT ON command
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_notify('command');

CREATE TRIGGER definition_notify AFTER UPDATE ON definition_revision
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_notify('definition');

-- Moving a node on the canvas is no change for the engine: only the columns it runs on count.
DROP TRIGGER task_revision ON task;
CREATE TRIGGER task_revision AFTER INSERT OR DELETE ON task
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();
CREATE TRIGGER task_edit_revision AFTER UPDATE OF chain_id, name, kind, command, arguments, working_dir, environment, connection_id, ignore_error, autonomous, timeout_s, max_retries, retry_delay_s, retry_backoff, priority ON task
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_bump_definition_revision();
