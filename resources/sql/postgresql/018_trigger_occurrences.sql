-- Hourglass schema, version 18 (PostgreSQL). As SQLite's (see its file): triggers in the
-- occurrence ledger (trigger_id in place of schedule_id, detail saying what fired) and the
-- file versions a missed-runs inbox row of a file trigger holds.
ALTER TABLE occurrence ALTER COLUMN schedule_id DROP NOT NULL;
ALTER TABLE occurrence ADD COLUMN trigger_id BIGINT REFERENCES chain_trigger(id) ON DELETE CASCADE;
ALTER TABLE occurrence ADD COLUMN detail TEXT NOT NULL DEFAULT '';
ALTER TABLE occurrence ADD CONSTRAINT occurrence_schedule_or_trigger
    CHECK ((schedule_id IS NULL) <> (trigger_id IS NULL));
CREATE INDEX occurrence_trigger ON occurrence(trigger_id, last_fire);

CREATE TABLE file_trigger_held (
    occurrence_id BIGINT NOT NULL REFERENCES occurrence(id) ON DELETE CASCADE,
    path          TEXT   NOT NULL,
    inode         BIGINT NOT NULL,
    size          BIGINT NOT NULL,
    mtime_ms      BIGINT NOT NULL,
    event         TEXT   NOT NULL CHECK (event IN ('created', 'modified', 'deleted')),
    PRIMARY KEY (occurrence_id, path)
);
