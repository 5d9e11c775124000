-- Hourglass schema, version 8.
-- Lateness and duration alerts. alert_rule: a chain's optional rules (one row per chain that
-- has any): started more than late_after ms after its fire time; a run longer than a ceiling
-- or shorter than a floor, each absolute (ms) or relative to the median duration of the
-- chain's last 20 succeeded runs (a factor; 0: not set); and a deadline, a cron expression in
-- deadline_zone whose every fire time must have a succeeded run in the 24 hours before it.
-- alert: each alert raised; kind is AlertKind's name. run_id is a plain value (no foreign
-- key), as in the occurrence ledger: retention removes runs without looking through alerts.
-- The engine reads a chain's rules when it judges a run (and its deadlines every few
-- seconds), so an edit needs no change feed; alerts are history, removed with their chain.

CREATE TABLE alert_rule (
    chain_id            INTEGER NOT NULL PRIMARY KEY REFERENCES chain(id) ON DELETE CASCADE,
    late_after          BIGINT NOT NULL DEFAULT 0 CHECK (late_after >= 0),
    longer_than         BIGINT NOT NULL DEFAULT 0 CHECK (longer_than >= 0),
    longer_than_factor  REAL NOT NULL DEFAULT 0 CHECK (longer_than_factor >= 0),
    shorter_than        BIGINT NOT NULL DEFAULT 0 CHECK (shorter_than >= 0),
    shorter_than_factor REAL NOT NULL DEFAULT 0 CHECK (shorter_than_factor >= 0),
    deadline            TEXT NOT NULL DEFAULT '',
    deadline_zone       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE alert (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id  INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    run_id    INTEGER,
    kind      TEXT NOT NULL CHECK (kind IN ('late', 'too-long', 'too-short', 'deadline')),
    at        BIGINT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '',
    raised_at BIGINT NOT NULL
);
CREATE INDEX alert_chain ON alert(chain_id, at);
CREATE INDEX alert_run ON alert(run_id) WHERE run_id IS NOT NULL;
