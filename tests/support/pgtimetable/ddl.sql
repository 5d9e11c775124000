-- pg_timetable's ddl.sql (v5.13.0 and v6.3.0 agree; 6.x adds execution_log.params, see
-- v6.sql). Written for Hourglass's tests from the published definitions.

CREATE TABLE timetable.chain (
    chain_id            BIGSERIAL PRIMARY KEY,
    chain_name          TEXT      NOT NULL UNIQUE,
    run_at              timetable.cron,
    max_instances       INTEGER,
    timeout             INTEGER   DEFAULT 0,
    live                BOOLEAN   DEFAULT FALSE,
    self_destruct       BOOLEAN   DEFAULT FALSE,
    exclusive_execution BOOLEAN   DEFAULT FALSE,
    client_name         TEXT,
    on_error            TEXT
);

CREATE TYPE timetable.command_kind AS ENUM ('SQL', 'PROGRAM', 'BUILTIN');

CREATE TABLE timetable.task (
    task_id             BIGSERIAL              PRIMARY KEY,
    chain_id            BIGINT                 REFERENCES timetable.chain (chain_id)
                                               ON UPDATE CASCADE ON DELETE CASCADE,
    task_order          DOUBLE PRECISION       NOT NULL,
    task_name           TEXT,
    kind                timetable.command_kind NOT NULL DEFAULT 'SQL',
    command             TEXT                   NOT NULL,
    run_as              TEXT,
    database_connection TEXT,
    ignore_error        BOOLEAN                NOT NULL DEFAULT FALSE,
    autonomous          BOOLEAN                NOT NULL DEFAULT FALSE,
    timeout             INTEGER                DEFAULT 0
);

-- One row per run of the task: pg_timetable runs a task once for each parameter row.
CREATE TABLE timetable.parameter (
    task_id  BIGINT  REFERENCES timetable.task (task_id) ON UPDATE CASCADE ON DELETE CASCADE,
    order_id INTEGER CHECK (order_id > 0),
    value    JSONB,
    PRIMARY KEY (task_id, order_id)
);

CREATE UNLOGGED TABLE timetable.active_session (
    client_pid  BIGINT NOT NULL,
    server_pid  BIGINT NOT NULL,
    client_name TEXT   NOT NULL,
    started_at  TIMESTAMPTZ DEFAULT now()
);

CREATE TYPE timetable.log_type AS ENUM ('DEBUG', 'NOTICE', 'INFO', 'ERROR', 'PANIC', 'USER');

CREATE OR REPLACE FUNCTION timetable.get_client_name(integer) RETURNS TEXT AS $$
    SELECT client_name FROM timetable.active_session WHERE server_pid = $1 LIMIT 1
$$ LANGUAGE sql;

CREATE TABLE timetable.log (
    ts           TIMESTAMPTZ        DEFAULT now(),
    pid          INTEGER            NOT NULL,
    log_level    timetable.log_type NOT NULL,
    client_name  TEXT               DEFAULT timetable.get_client_name(pg_backend_pid()),
    message      TEXT,
    message_data jsonb
);

CREATE TABLE timetable.execution_log (
    chain_id     BIGINT,
    task_id      BIGINT,
    txid         BIGINT NOT NULL,
    last_run     TIMESTAMPTZ DEFAULT now(),
    finished     TIMESTAMPTZ,
    pid          BIGINT,
    returncode   INTEGER,
    ignore_error BOOLEAN,
    kind         timetable.command_kind,
    command      TEXT,
    output       TEXT,
    client_name  TEXT NOT NULL
);

CREATE UNLOGGED TABLE timetable.active_chain (
    chain_id    BIGINT NOT NULL,
    client_name TEXT   NOT NULL,
    started_at  TIMESTAMPTZ DEFAULT now()
);

-- A worker registers under its client name; a name held by another live worker is refused.
CREATE OR REPLACE FUNCTION timetable.try_lock_client_name(worker_pid BIGINT, worker_name TEXT)
RETURNS bool AS $$
BEGIN
    IF pg_is_in_recovery() THEN
        RAISE NOTICE 'Cannot obtain lock on a replica. Please, use the primary node';
        RETURN FALSE;
    END IF;
    -- sessions whose backend is gone, and the chains they ran, are forgotten
    DELETE FROM timetable.active_session
     WHERE server_pid NOT IN (SELECT pid FROM pg_catalog.pg_stat_activity
                               WHERE application_name = 'pg_timetable');
    DELETE FROM timetable.active_chain
     WHERE client_name NOT IN (SELECT client_name FROM timetable.active_session);
    IF EXISTS (SELECT 1 FROM timetable.active_session s
                WHERE s.client_pid <> worker_pid AND s.client_name = worker_name) THEN
        RAISE NOTICE 'Another client is already connected to server with name: %', worker_name;
        RETURN FALSE;
    END IF;
    INSERT INTO timetable.active_session (client_pid, client_name, server_pid)
    VALUES (worker_pid, worker_name, pg_backend_pid());
    RETURN TRUE;
END;
$$ STRICT LANGUAGE plpgsql;
