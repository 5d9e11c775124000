-- hourglass: foreign keys off
-- Hourglass schema, version 18. Triggers in the occurrence ledger: a trigger's fire that did
-- not become a run of its own (files skipped by misfire policy skip, gathered into one run by
-- the batch window, the storm guard or policy once, or waiting in the missed-runs inbox under
-- policy ask) is a row as a schedule's is, with trigger_id in place of schedule_id (exactly
-- one of the two) and detail saying what fired (the files' names, shortened). first_fire and
-- last_fire are when the files were written. The file versions an inbox row holds are in
-- file_trigger_held until the user decides: run each, one run for all, or dismiss.
-- A chain may need a network (chain.needs_network, Task Scheduler's RunOnlyIfNetworkAvailable):
-- a fire of its schedules while the computer has none is not run, and the ledger says so
-- (outcome skipped-offline). A change to it is a change to the chain (chain_updated again,
-- 005's text with the column).
-- SQLite cannot drop a NOT NULL: occurrence is rebuilt (foreign keys off around this file, so
-- file_trigger_held's key is checked before it commits); the two notify triggers that read it
-- are dropped first and made again unchanged (014's text).
DROP TRIGGER missed_notify;
DROP TRIGGER missed_insert_notify;

CREATE TABLE occurrence_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id INTEGER REFERENCES schedule(id) ON DELETE CASCADE,
    chain_id    INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('skipped-overlap', 'skipped-misfire', 'coalesced', 'missed', 'excluded', 'paused', 'skipped-offline')),
    cause       TEXT    NOT NULL DEFAULT '',
    first_fire  BIGINT  NOT NULL,
    last_fire   BIGINT  NOT NULL,
    fire_count  BIGINT  NOT NULL DEFAULT 1 CHECK (fire_count > 0),
    run_id      INTEGER,
    inbox       TEXT    NOT NULL DEFAULT '' CHECK (inbox IN ('', 'pending', 'run', 'dismissed')),
    trigger_id  INTEGER REFERENCES chain_trigger(id) ON DELETE CASCADE,
    detail      TEXT    NOT NULL DEFAULT '',
    CHECK (first_fire <= last_fire),
    CHECK ((schedule_id IS NULL) <> (trigger_id IS NULL))
);
INSERT INTO occurrence_new (id, schedule_id, chain_id, outcome, cause, first_fire, last_fire,
                            fire_count, run_id, inbox)
SELECT id, schedule_id, chain_id, outcome, cause, first_fire, last_fire, fire_count, run_id,
       inbox FROM occurrence;
DROP TABLE occurrence;
ALTER TABLE occurrence_new RENAME TO occurrence;
CREATE INDEX occurrence_schedule ON occurrence(schedule_id, last_fire);
CREATE INDEX occurrence_trigger ON occurrence(trigger_id, last_fire);
-- The inbox is read often (the tray's count) and holds few rows.
CREATE INDEX occurrence_inbox ON occurrence(inbox) WHERE inbox = 'pending';

-- The file versions an inbox row of a file trigger stands for. event: created or modified.
CREATE TABLE file_trigger_held (
    occurrence_id INTEGER NOT NULL REFERENCES occurrence(id) ON DELETE CASCADE,
    path          TEXT    NOT NULL,
    inode         BIGINT  NOT NULL,
    size          BIGINT  NOT NULL,
    mtime_ms      BIGINT  NOT NULL,
    event         TEXT    NOT NULL CHECK (event IN ('created', 'modified', 'deleted')),
    PRIMARY KEY (occurrence_id, path)
);

CREATE TRIGGER missed_notify AFTER UPDATE OF inbox ON occurrence
WHEN NEW.inbox = 'pending' AND OLD.inbox <> 'pending' AND EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'missed:' || NEW.id || ':' || r.channel_id, r.channel_id, r.route_id, 'missed',
        NULL, NEW.chain_id, NEW.id, r.recipients,
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        lower(hex(randomblob(16))),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM notify_chain_route r
    WHERE r.chain_id = NEW.chain_id AND r.events LIKE '%,missed,%';
END;

CREATE TRIGGER missed_insert_notify AFTER INSERT ON occurrence
WHEN NEW.inbox = 'pending' AND EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'missed:' || NEW.id || ':' || r.channel_id, r.channel_id, r.route_id, 'missed',
        NULL, NEW.chain_id, NEW.id, r.recipients,
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        lower(hex(randomblob(16))),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM notify_chain_route r
    WHERE r.chain_id = NEW.chain_id AND r.events LIKE '%,missed,%';
END;

ALTER TABLE chain ADD COLUMN needs_network INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER chain_updated;
CREATE TRIGGER chain_updated AFTER UPDATE OF project_id, name, enabled, max_instances, overlap, timeout_s, self_destruct, exclusive, client_name, on_failure, priority, notify, parameters, needs_network ON chain
WHEN NEW.project_id IS NOT OLD.project_id OR NEW.name IS NOT OLD.name OR NEW.enabled IS NOT OLD.enabled OR NEW.max_instances IS NOT OLD.max_instances OR NEW.overlap IS NOT OLD.overlap OR NEW.timeout_s IS NOT OLD.timeout_s OR NEW.self_destruct IS NOT OLD.self_destruct OR NEW.exclusive IS NOT OLD.exclusive OR NEW.client_name IS NOT OLD.client_name OR NEW.on_failure IS NOT OLD.on_failure OR NEW.priority IS NOT OLD.priority OR NEW.notify IS NOT OLD.notify OR NEW.parameters IS NOT OLD.parameters OR NEW.needs_network IS NOT OLD.needs_network BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.id, 'chain', NEW.id FROM definition_revision WHERE id = 1;
END;
