-- hourglass: foreign keys off
-- Hourglass schema, version 18. Triggers in the occurrence ledger: a trigger's fire that did
-- not become a run of its own (files skipped by misfire policy skip, gathered into one run by
-- the batch window, the storm guard or policy once, or waiting in the missed-runs inbox under
-- policy ask) is a row as a schedule's is, with trigger_id in place of schedule_id (exactly
-- one of the two) and detail saying what fired (the files' names, shortened). first_fire and
-- last_fire are when the files were written. The file versions an inbox row holds are in
-- file_trigger_held until the user decides: run each, one run for all, or dismiss.
-- SQLite cannot drop a NOT NULL: occurrence is rebuilt (foreign keys off around this file, so
-- file_trigger_held's key is checked before it commits); the two notify triggers that read it
-- are dropped first and made again unchanged (014's text).
DROP TRIGGER missed_notify;
DROP TRIGGER missed_insert_notify;

CREATE TABLE occurrence_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id INTEGER REFERENCES schedule(id) ON DELETE CASCADE,
    chain_id    INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('skipped-overlap', 'skipped-misfire', 'coalesced', 'missed', 'excluded', 'paused')),
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
