-- Hourglass schema, version 17 (PostgreSQL). As SQLite's (see its file): file triggers, what
-- each has seen of its files, and a trigger's changes in the change feed. A file is on one
-- machine: a file trigger of a shared store is watched by the engine its chain's client name
-- names (the store refuses one without).
ALTER TABLE chain_trigger DROP CONSTRAINT chain_trigger_kind_check;
ALTER TABLE chain_trigger ADD CONSTRAINT chain_trigger_kind_check
    CHECK (kind IN ('after', 'file', 'desktop', 'webhook'));
ALTER TABLE chain_trigger ADD COLUMN watch_note TEXT NOT NULL DEFAULT '';
ALTER TABLE chain_trigger ADD COLUMN watch_note_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE chain_trigger ADD COLUMN baseline_at BIGINT;

CREATE TABLE file_trigger_seen (
    trigger_id BIGINT NOT NULL REFERENCES chain_trigger(id) ON DELETE CASCADE,
    path       TEXT   NOT NULL,
    inode      BIGINT NOT NULL,
    size       BIGINT NOT NULL,
    mtime_ms   BIGINT NOT NULL,
    waiting    TEXT   NOT NULL DEFAULT ''
               CHECK (waiting IN ('', 'created', 'modified', 'deleted')),
    PRIMARY KEY (trigger_id, path)
);
CREATE INDEX file_trigger_waiting ON file_trigger_seen(trigger_id) WHERE waiting <> '';

CREATE FUNCTION hourglass_chain_trigger_changes() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF TG_OP = ''DELETE'' THEN
        PERFORM hourglass_note_changes(''chain'', ARRAY[OLD.chain_id], ARRAY[OLD.chain_id]);
        RETURN NULL;
    END IF;
    IF TG_OP = ''UPDATE'' AND (NEW.chain_id, NEW.paused, NEW.settings)
                              IS NOT DISTINCT FROM (OLD.chain_id, OLD.paused, OLD.settings) THEN
        RETURN NULL;
    END IF;
    PERFORM hourglass_note_changes(''chain'', ARRAY[NEW.chain_id], ARRAY[NEW.chain_id]);
    RETURN NULL;
END';

CREATE TRIGGER chain_trigger_changed AFTER INSERT OR UPDATE OR DELETE ON chain_trigger
FOR EACH ROW EXECUTE FUNCTION hourglass_chain_trigger_changes();
