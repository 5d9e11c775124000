-- Follows pg_timetable v5.13.0, internal/pgengine/sql/ddl.sql (rewritten for Hourglass's tests).

-- A chain is a schedule and its options; a job (add_job) is a chain with one task.
CREATE TABLE timetable.chain (
    chain_id            BIGSERIAL   PRIMARY KEY,
    chain_name          TEXT        NOT NULL UNIQUE,
    run_at              timetable.cron,
    max_instances       INTEGER,
    timeout             INTEGER     DEFAULT 0,
    live                BOOLEAN     DEFAULT FALSE,
    self_destruct       BOOLEAN     DEFAULT FALSE,
    exclusive_execution BOOLEAN     DEFAULT FALSE,
    client_name         TEXT,
    on_error            TEXT
);

COMMENT ON TABLE timetable.chain IS 'Chains and when they run';
COMMENT ON COLUMN timetable.chain.run_at IS 'When the chain runs: timetable.cron notation';
COMMENT ON COLUMN timetable.chain.max_instances IS
    'How many instances of the chain may run at once (the worker reads NULL as 16)';
COMMENT ON COLUMN timetable.chain.timeout IS 'Milliseconds after which a run is aborted';
COMMENT ON COLUMN timetable.chain.live IS 'FALSE pauses the chain';
COMMENT ON COLUMN timetable.chain.self_destruct IS 'The chain deletes itself after a successful run';
COMMENT ON COLUMN timetable.chain.exclusive_execution IS
    'Other chains of the worker wait while this one runs';
COMMENT ON COLUMN timetable.chain.client_name IS
    'The only worker allowed to run the chain; NULL lets any worker run it';

CREATE TYPE timetable.command_kind AS ENUM ('SQL', 'PROGRAM', 'BUILTIN');

CREATE TABLE timetable.task (
    task_id             BIGSERIAL               PRIMARY KEY,
    chain_id            BIGINT                  REFERENCES timetable.chain (chain_id)
                                                    ON UPDATE CASCADE ON DELETE CASCADE,
    task_order          DOUBLE PRECISION        NOT NULL,
    task_name           TEXT,
    kind                timetable.command_kind  NOT NULL DEFAULT 'SQL',
    command             TEXT                    NOT NULL,
    run_as              TEXT,
    database_connection TEXT,
    ignore_error        BOOLEAN                 NOT NULL DEFAULT FALSE,
    autonomous          BOOLEAN                 NOT NULL DEFAULT FALSE,
    timeout             INTEGER                 DEFAULT 0
);

COMMENT ON TABLE timetable.task IS 'The tasks of the chains';
COMMENT ON COLUMN timetable.task.chain_id IS 'The chain; a task without one is disabled';
COMMENT ON COLUMN timetable.task.task_order IS 'Position of the task in its chain';
COMMENT ON COLUMN timetable.task.run_as IS 'Role for SET ROLE before an SQL task';
COMMENT ON COLUMN timetable.task.ignore_error IS 'The chain goes on when this task fails';
COMMENT ON COLUMN timetable.task.kind IS 'What command is: SQL, a built-in task or a program';
COMMENT ON COLUMN timetable.task.command IS 'The SQL, the built-in task''s name or the program';
COMMENT ON COLUMN timetable.task.timeout IS 'Milliseconds after which the task is aborted';
COMMENT ON COLUMN timetable.task.autonomous IS
    'Runs outside the chain''s transaction (VACUUM, CREATE DATABASE, CALL ...)';

-- Each row is one parameter set: the task runs once per non-NULL value, in order_id order.
CREATE TABLE timetable.parameter (
    task_id  BIGINT  REFERENCES timetable.task (task_id) ON UPDATE CASCADE ON DELETE CASCADE,
    order_id INTEGER CHECK (order_id > 0),
    value    JSONB,
    PRIMARY KEY (task_id, order_id)
);

COMMENT ON TABLE timetable.parameter IS 'Arguments the tasks run with';

-- One row per pooled connection of a worker (try_lock_client_name): client_pid is the
-- worker's random session id, server_pid the backend of that connection.
CREATE UNLOGGED TABLE timetable.active_session (
    client_pid  BIGINT      NOT NULL,
    server_pid  BIGINT      NOT NULL,
    client_name TEXT        NOT NULL,
    started_at  TIMESTAMPTZ DEFAULT now()
);

COMMENT ON TABLE timetable.active_session IS 'Connected workers';

CREATE TYPE timetable.log_type AS ENUM ('DEBUG', 'NOTICE', 'INFO', 'ERROR', 'PANIC', 'USER');

CREATE OR REPLACE FUNCTION timetable.get_client_name(INTEGER) RETURNS TEXT AS $$
    SELECT s.client_name FROM timetable.active_session AS s WHERE s.server_pid = $1 LIMIT 1
$$ LANGUAGE sql;

CREATE TABLE timetable.log (
    ts           TIMESTAMPTZ        DEFAULT now(),
    pid          INTEGER            NOT NULL,
    log_level    timetable.log_type NOT NULL,
    client_name  TEXT               DEFAULT timetable.get_client_name(pg_backend_pid()),
    message      TEXT,
    message_data JSONB
);

COMMENT ON TABLE timetable.log IS 'The workers'' own log';

CREATE TABLE timetable.execution_log (
    chain_id     BIGINT,
    task_id      BIGINT,
    txid         BIGINT      NOT NULL,
    last_run     TIMESTAMPTZ DEFAULT now(),
    finished     TIMESTAMPTZ,
    pid          BIGINT,
    returncode   INTEGER,
    ignore_error BOOLEAN,
    kind         timetable.command_kind,
    command      TEXT,
    output       TEXT,
    client_name  TEXT        NOT NULL
);

COMMENT ON TABLE timetable.execution_log IS 'One row per task run';

CREATE UNLOGGED TABLE timetable.active_chain (
    chain_id    BIGINT      NOT NULL,
    client_name TEXT        NOT NULL,
    started_at  TIMESTAMPTZ DEFAULT now()
);

COMMENT ON TABLE timetable.active_chain IS 'Chains running now, one row per running instance';

-- Registers a worker's connection. First forgets sessions whose backend is gone (or is not
-- named 'pg_timetable') and the chains of workers left without a session; then refuses when
-- another worker (another client_pid) already uses the name.
CREATE OR REPLACE FUNCTION timetable.try_lock_client_name(worker_pid BIGINT, worker_name TEXT)
RETURNS BOOLEAN AS $$
BEGIN
    IF pg_is_in_recovery() THEN
        RAISE NOTICE 'Cannot obtain lock on a replica. Please, use the primary node';
        RETURN FALSE;
    END IF;
    DELETE FROM timetable.active_session AS s
        WHERE s.server_pid NOT IN (SELECT a.pid FROM pg_catalog.pg_stat_activity AS a
                                   WHERE a.application_name = 'pg_timetable');
    DELETE FROM timetable.active_chain AS c
        WHERE c.client_name NOT IN (SELECT s.client_name FROM timetable.active_session AS s);
    IF EXISTS (SELECT FROM timetable.active_session AS s
               WHERE s.client_name = worker_name AND s.client_pid <> worker_pid) THEN
        RAISE NOTICE 'Another client is already connected to server with name: %', worker_name;
        RETURN FALSE;
    END IF;
    INSERT INTO timetable.active_session (client_pid, client_name, server_pid)
        VALUES (worker_pid, worker_name, pg_backend_pid());
    RETURN TRUE;
END;
$$ LANGUAGE plpgsql STRICT;
