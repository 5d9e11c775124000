-- Hourglass schema, version 19 (SQLite). The local API (`serve --api`).
-- api_token: who may call it. The token itself is never stored: only its SHA-256 (it is 160
-- random bits, so no slow hash is needed) and its first characters, to name it in lists and
-- logs. role: read < operate < admin; metrics reads /metrics only. Times in ms, UTC.
-- api_request_key: an Idempotency-Key (or a webhook's X-Hourglass-Delivery) and the run it
-- made, so a repeat returns that run; scope says whose key it is (a chain, a hook). Written in
-- the run's own transaction: two engines answering the same key make one run.
-- api_listener: each process serving the API, for `hourglass api status` and the window:
-- written when it starts listening, every ten seconds while it does, removed when it stops.
CREATE TABLE api_token (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    role         TEXT    NOT NULL CHECK (role IN ('read', 'operate', 'admin', 'metrics')),
    prefix       TEXT    NOT NULL UNIQUE,
    hash         TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    last_used_at INTEGER
);

CREATE TABLE api_request_key (
    scope       TEXT    NOT NULL,
    request_key TEXT    NOT NULL,
    run_id      INTEGER REFERENCES run(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, request_key)
);
CREATE INDEX api_request_key_age ON api_request_key(created_at);

CREATE TABLE api_listener (
    host            TEXT    NOT NULL,
    pid             INTEGER NOT NULL,
    engine_name     TEXT    NOT NULL DEFAULT '',
    url             TEXT    NOT NULL,
    insecure        INTEGER NOT NULL DEFAULT 0,
    started_at      INTEGER NOT NULL,
    seen_at         INTEGER NOT NULL,
    requests        INTEGER NOT NULL DEFAULT 0,
    last_request_at INTEGER,
    PRIMARY KEY (host, pid)
);
