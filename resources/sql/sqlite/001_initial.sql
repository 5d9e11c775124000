-- Hourglass schema, version 1 (SQLite). Times are milliseconds since the epoch, UTC.
-- Statements end with a semicolon at the end of a line; the migrator splits on that.

CREATE TABLE project (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    description TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
);

CREATE TABLE connection_profile (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    kind         TEXT    NOT NULL,
    host         TEXT    NOT NULL DEFAULT '',
    port         INTEGER NOT NULL DEFAULT 0,
    database     TEXT    NOT NULL DEFAULT '',
    user_name    TEXT    NOT NULL DEFAULT '',
    options      TEXT    NOT NULL DEFAULT '',
    keychain_key TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE chain (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id       INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    name             TEXT    NOT NULL CHECK (name <> ''),
    description      TEXT    NOT NULL DEFAULT '',
    enabled          INTEGER NOT NULL DEFAULT 1,
    max_instances    INTEGER NOT NULL DEFAULT 0 CHECK (max_instances >= 0),
    overlap          TEXT    NOT NULL DEFAULT 'queue',
    timeout_s        INTEGER NOT NULL DEFAULT 0 CHECK (timeout_s >= 0),
    self_destruct    INTEGER NOT NULL DEFAULT 0,
    exclusive        INTEGER NOT NULL DEFAULT 0,
    client_name      TEXT    NOT NULL DEFAULT '',
    on_failure       TEXT    NOT NULL DEFAULT 'end',
    priority         TEXT    NOT NULL DEFAULT 'medium',
    notify           TEXT    NOT NULL DEFAULT 'failure',
    parameters       TEXT    NOT NULL DEFAULT '{}',
    created_at       INTEGER NOT NULL,
    UNIQUE (project_id, name)
);

CREATE TABLE task (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id        INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    name            TEXT    NOT NULL CHECK (name <> ''),
    kind            TEXT    NOT NULL,
    command         TEXT    NOT NULL DEFAULT '',
    arguments       TEXT    NOT NULL DEFAULT '[]',
    working_dir     TEXT    NOT NULL DEFAULT '',
    environment     TEXT    NOT NULL DEFAULT '{}',
    connection_id   INTEGER REFERENCES connection_profile(id) ON DELETE RESTRICT,
    ignore_error    INTEGER NOT NULL DEFAULT 0,
    autonomous      INTEGER NOT NULL DEFAULT 0,
    timeout_s       INTEGER NOT NULL DEFAULT 0 CHECK (timeout_s >= 0),
    max_retries     INTEGER NOT NULL DEFAULT 0 CHECK (max_retries >= 0),
    retry_delay_s   INTEGER NOT NULL DEFAULT 0 CHECK (retry_delay_s >= 0),
    retry_backoff   REAL    NOT NULL DEFAULT 2.0,
    priority        TEXT    NOT NULL DEFAULT 'medium',
    pos_x           REAL,
    pos_y           REAL,
    UNIQUE (chain_id, name)
);

CREATE TABLE dependency (
    task_id     INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
    upstream_id INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
    condition   TEXT    NOT NULL DEFAULT 'success',
    PRIMARY KEY (task_id, upstream_id),
    CHECK (task_id <> upstream_id)
);
CREATE INDEX dependency_upstream ON dependency(upstream_id);

CREATE TABLE schedule (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id         INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL,
    expression       TEXT    NOT NULL,
    dialect          TEXT    NOT NULL DEFAULT 'auto',
    time_zone        TEXT    NOT NULL DEFAULT '',
    misfire          TEXT    NOT NULL DEFAULT 'once',
    misfire_window_s INTEGER NOT NULL DEFAULT 86400,
    active_from      INTEGER,
    active_until     INTEGER,
    enabled          INTEGER NOT NULL DEFAULT 1,
    created_at       INTEGER NOT NULL
);
CREATE INDEX schedule_chain ON schedule(chain_id);

CREATE TABLE run (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id      INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    schedule_id   INTEGER REFERENCES schedule(id) ON DELETE SET NULL,
    parent_run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
    rerun_of_id   INTEGER REFERENCES run(id) ON DELETE SET NULL,
    trigger       TEXT    NOT NULL,
    scheduled_for INTEGER NOT NULL,
    state         TEXT    NOT NULL DEFAULT 'queued',
    engine_name   TEXT    NOT NULL DEFAULT '',
    parameters    TEXT    NOT NULL DEFAULT '{}',
    created_at    INTEGER NOT NULL,
    started_at    INTEGER,
    finished_at   INTEGER,
    UNIQUE (schedule_id, scheduled_for)
);
CREATE INDEX run_chain ON run(chain_id, id);
CREATE INDEX run_state ON run(state, id);

CREATE TABLE task_run (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    task_id       INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
    attempt       INTEGER NOT NULL DEFAULT 1,
    state         TEXT    NOT NULL DEFAULT 'queued',
    pid           INTEGER NOT NULL DEFAULT 0,
    process_start INTEGER NOT NULL DEFAULT 0,
    exit_code     INTEGER,
    error         TEXT    NOT NULL DEFAULT '',
    queued_at     INTEGER NOT NULL,
    started_at    INTEGER,
    finished_at   INTEGER,
    UNIQUE (run_id, task_id, attempt)
);
CREATE INDEX task_run_state ON task_run(state);

CREATE TABLE log_line (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    task_run_id INTEGER REFERENCES task_run(id) ON DELETE CASCADE,
    stream      TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    text        TEXT    NOT NULL
);
CREATE INDEX log_line_run ON log_line(run_id, id);

CREATE TABLE command (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL,
    chain_id      INTEGER REFERENCES chain(id) ON DELETE CASCADE,
    run_id        INTEGER REFERENCES run(id) ON DELETE CASCADE,
    payload       TEXT    NOT NULL DEFAULT '{}',
    target_engine TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    claimed_by    TEXT    NOT NULL DEFAULT '',
    claimed_at    INTEGER,
    done_at       INTEGER,
    error         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX command_pending ON command(claimed_at, id);

CREATE TABLE engine_session (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL UNIQUE,
    host         TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    started_at   INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    lease_until  INTEGER NOT NULL,
    capacity     INTEGER NOT NULL DEFAULT 0,
    load         INTEGER NOT NULL DEFAULT 0
);
