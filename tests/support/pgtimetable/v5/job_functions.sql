-- Follows pg_timetable v5.13.0, internal/pgengine/sql/job_functions.sql (rewritten for Hourglass's tests).

-- A task of the given kind and command in parent_id's chain, order_delta after it; NULL when
-- there is no task parent_id.
CREATE OR REPLACE FUNCTION timetable.add_task(
    IN kind timetable.command_kind,
    IN command TEXT,
    IN parent_id BIGINT,
    IN order_delta DOUBLE PRECISION DEFAULT 10
) RETURNS BIGINT AS $$
    INSERT INTO timetable.task (chain_id, task_order, kind, command)
        SELECT parent.chain_id, parent.task_order + $4, $1, $2
        FROM timetable.task AS parent
        WHERE parent.task_id = $3
    RETURNING task_id
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.add_task IS 'Adds a task after parent_id in the same chain';

-- A job is a chain with one autonomous task (order 10) and one parameter row (order_id 1,
-- written even when job_parameters is NULL). Returns the chain's id.
CREATE OR REPLACE FUNCTION timetable.add_job(
    job_name          TEXT,
    job_schedule      timetable.cron,
    job_command       TEXT,
    job_parameters    JSONB DEFAULT NULL,
    job_kind          timetable.command_kind DEFAULT 'SQL'::timetable.command_kind,
    job_client_name   TEXT DEFAULT NULL,
    job_max_instances INTEGER DEFAULT NULL,
    job_live          BOOLEAN DEFAULT TRUE,
    job_self_destruct BOOLEAN DEFAULT FALSE,
    job_ignore_errors BOOLEAN DEFAULT TRUE,
    job_exclusive     BOOLEAN DEFAULT FALSE,
    job_on_error      TEXT DEFAULT NULL
) RETURNS BIGINT AS $$
    WITH new_chain AS (
        INSERT INTO timetable.chain (chain_name, run_at, max_instances, live, self_destruct,
                                     client_name, exclusive_execution, on_error)
        VALUES (job_name, job_schedule, job_max_instances, job_live, job_self_destruct,
                job_client_name, job_exclusive, job_on_error)
        RETURNING chain_id
    ), new_task AS (
        INSERT INTO timetable.task (chain_id, task_order, kind, command, ignore_error, autonomous)
        SELECT c.chain_id, 10, job_kind, job_command, job_ignore_errors, TRUE
        FROM new_chain AS c
        RETURNING task_id
    ), new_parameter AS (
        INSERT INTO timetable.parameter (task_id, order_id, value)
        SELECT t.task_id, 1, job_parameters
        FROM new_task AS t
    )
    SELECT c.chain_id FROM new_chain AS c
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.add_job IS 'Adds a job: a chain with a single task';

-- The worker LISTENs on a channel named after itself (its --clientname) and runs the chain
-- start_delay (whole seconds) after the notification comes.
CREATE OR REPLACE FUNCTION timetable.notify_chain_start(
    chain_id    BIGINT,
    worker_name TEXT,
    start_delay INTERVAL DEFAULT NULL
) RETURNS VOID AS $$
    SELECT pg_notify(worker_name,
                     format('{"ConfigID": %s, "Command": "START", "Ts": %s, "Delay": %s}',
                            chain_id,
                            extract(epoch FROM clock_timestamp())::BIGINT,
                            coalesce(extract(epoch FROM start_delay)::BIGINT, 0)))
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.notify_chain_start IS
    'Asks the worker worker_name to start the chain, after start_delay';

-- The worker cancels the chain if one of its runs of it is under way.
CREATE OR REPLACE FUNCTION timetable.notify_chain_stop(
    chain_id    BIGINT,
    worker_name TEXT
) RETURNS VOID AS $$
    SELECT pg_notify(worker_name,
                     format('{"ConfigID": %s, "Command": "STOP", "Ts": %s}',
                            chain_id,
                            extract(epoch FROM clock_timestamp())::BIGINT))
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.notify_chain_stop IS 'Asks the worker worker_name to stop the chain';

-- Swaps task_order with the nearest task before it in the chain; FALSE when there is none.
CREATE OR REPLACE FUNCTION timetable.move_task_up(IN task_id BIGINT) RETURNS BOOLEAN AS $$
    WITH moved AS (
        SELECT t.chain_id, t.task_id, t.task_order FROM timetable.task AS t WHERE t.task_id = $1
    ), neighbour AS (
        SELECT t.task_id, t.task_order
        FROM timetable.task AS t JOIN moved AS m ON t.chain_id = m.chain_id
        WHERE t.task_order < m.task_order
        ORDER BY t.task_order DESC
        LIMIT 1
    ), swapped AS (
        UPDATE timetable.task AS t
        SET task_order = CASE WHEN t.task_id = m.task_id THEN n.task_order ELSE m.task_order END
        FROM moved AS m, neighbour AS n
        WHERE t.task_id IN (m.task_id, n.task_id)
        RETURNING TRUE
    )
    SELECT count(*) > 0 FROM swapped
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.move_task_up IS 'Swaps the task with the one before it';

-- Swaps task_order with the nearest task after it in the chain; FALSE when there is none.
CREATE OR REPLACE FUNCTION timetable.move_task_down(IN task_id BIGINT) RETURNS BOOLEAN AS $$
    WITH moved AS (
        SELECT t.chain_id, t.task_id, t.task_order FROM timetable.task AS t WHERE t.task_id = $1
    ), neighbour AS (
        SELECT t.task_id, t.task_order
        FROM timetable.task AS t JOIN moved AS m ON t.chain_id = m.chain_id
        WHERE t.task_order > m.task_order
        ORDER BY t.task_order
        LIMIT 1
    ), swapped AS (
        UPDATE timetable.task AS t
        SET task_order = CASE WHEN t.task_id = m.task_id THEN n.task_order ELSE m.task_order END
        FROM moved AS m, neighbour AS n
        WHERE t.task_id IN (m.task_id, n.task_id)
        RETURNING TRUE
    )
    SELECT count(*) > 0 FROM swapped
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.move_task_down IS 'Swaps the task with the one after it';

-- Deletes the chain named job_name (its tasks and parameters cascade); FALSE when none.
CREATE OR REPLACE FUNCTION timetable.delete_job(IN job_name TEXT) RETURNS BOOLEAN AS $$
    WITH gone AS (
        DELETE FROM timetable.chain AS c WHERE c.chain_name = $1 RETURNING c.chain_id
    )
    SELECT EXISTS (SELECT FROM gone)
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.delete_job IS 'Deletes the chain and its tasks';

CREATE OR REPLACE FUNCTION timetable.delete_task(IN task_id BIGINT) RETURNS BOOLEAN AS $$
    WITH gone AS (
        DELETE FROM timetable.task AS t WHERE t.task_id = $1 RETURNING t.task_id
    )
    SELECT EXISTS (SELECT FROM gone)
$$ LANGUAGE sql;

COMMENT ON FUNCTION timetable.delete_task IS 'Deletes a task from its chain';
