-- Hourglass schema, version 18 (PostgreSQL). As SQLite's (see its file): triggers in the
-- occurrence ledger (trigger_id in place of schedule_id, detail saying what fired) and the
-- file versions a missed-runs inbox row of a file trigger holds; a chain that needs a network
-- (its fires while offline are ledger rows skipped-offline).
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

ALTER TABLE occurrence DROP CONSTRAINT occurrence_outcome_check;
ALTER TABLE occurrence ADD CONSTRAINT occurrence_outcome_check
    CHECK (outcome IN ('skipped-overlap', 'skipped-misfire', 'coalesced', 'missed', 'excluded',
                       'paused', 'skipped-offline'));

ALTER TABLE chain ADD COLUMN needs_network BOOLEAN NOT NULL DEFAULT FALSE;
CREATE OR REPLACE FUNCTION hourglass_chain_changes() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    chains BIGINT[];
BEGIN
    IF TG_OP = ''INSERT'' THEN
        SELECT array_agg(id) INTO chains FROM new_rows;
    ELSIF TG_OP = ''DELETE'' THEN
        SELECT array_agg(id) INTO chains FROM old_rows;
    ELSE
        SELECT array_agg(n.id) INTO chains FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.project_id, n.name, n.enabled, n.max_instances, n.overlap, n.timeout_s,
               n.self_destruct, n.exclusive, n.client_name, n.on_failure, n.priority, n.notify,
               n.parameters, n.needs_network)
              IS DISTINCT FROM
              (o.project_id, o.name, o.enabled, o.max_instances, o.overlap, o.timeout_s,
               o.self_destruct, o.exclusive, o.client_name, o.on_failure, o.priority, o.notify,
               o.parameters, o.needs_network);
    END IF;
    PERFORM hourglass_note_changes(''chain'', chains, chains);
    RETURN NULL;
END';
