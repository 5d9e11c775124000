-- Hourglass schema, version 12.
-- The ends of runs removed with their chain or project (a self-destructing chain removes
-- itself after a success): a `run --wait` or `logs --follow` that saw the run running still
-- learns how it ended. Kept for the runs that ended within the hour before the removal, and
-- for a day after it.
CREATE TABLE removed_run (
    run_id      BIGINT PRIMARY KEY,
    chain_id    BIGINT NOT NULL,
    state       TEXT    NOT NULL,
    finished_at BIGINT,
    removed_at  BIGINT NOT NULL
);
CREATE INDEX removed_run_removed_at ON removed_run(removed_at);
