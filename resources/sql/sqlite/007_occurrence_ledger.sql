-- Hourglass schema, version 7.
-- The occurrence ledger: what became of each expected fire time of a schedule that did not
-- become a run (a run is its own record: its schedule_id and scheduled_for). Consecutive
-- equal outcomes of one schedule are one row with a count, first and last fire time, so an
-- engine that slept a week over an every-second schedule writes one row, not 604,800.
-- outcome and cause are OccurrenceOutcome's and OccurrenceCause's names; run_id is the run
-- a coalesced fire was folded into, or the first run of the batch an inbox row was run as.
-- inbox is the missed-runs inbox (misfire policy ask): '' not in it, pending, run, dismissed.
-- Not a definition: no trigger counts it as a change.
-- Read by schedule (a chain's rows through its schedules): one index beside the inbox's keeps
-- the ledger small beside the runs. chain_id and run_id are plain values, no foreign keys:
-- rows go with their schedule (ON DELETE CASCADE), and a key on run_id would make every run
-- that retention removes look through the ledger (a run named here may be gone).

CREATE TABLE occurrence (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id INTEGER NOT NULL REFERENCES schedule(id) ON DELETE CASCADE,
    chain_id    INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('skipped-overlap', 'skipped-misfire', 'coalesced', 'missed', 'excluded', 'paused')),
    cause       TEXT    NOT NULL DEFAULT '',
    first_fire  BIGINT  NOT NULL,
    last_fire   BIGINT  NOT NULL,
    fire_count  BIGINT  NOT NULL DEFAULT 1 CHECK (fire_count > 0),
    run_id      INTEGER,
    inbox       TEXT    NOT NULL DEFAULT '' CHECK (inbox IN ('', 'pending', 'run', 'dismissed')),
    CHECK (first_fire <= last_fire)
);
CREATE INDEX occurrence_schedule ON occurrence(schedule_id, last_fire);
-- The inbox is read often (the tray's count) and holds few rows.
CREATE INDEX occurrence_inbox ON occurrence(inbox) WHERE inbox = 'pending';
