-- pg_timetable's job_functions.sql, the part 5.13.0 and 6.3.0 share (6.x adds pause_job and
-- resume_job, see v6.sql). Rewritten for Hourglass's tests: same names, signatures, results.

-- A task appended to the chain of parent_id, order_delta after it.
CREATE OR REPLACE FUNCTION timetable.add_task(
    IN kind timetable.command_kind,
    IN command TEXT,
    IN parent_id BIGINT,
    IN order_delta DOUBLE PRECISION DEFAULT 10
) RETURNS BIGINT AS $$
    INSERT INTO timetable.task (chain_id, task_order, kind, command)
    SELECT chain_id, task_order + $4, $1, $2 FROM timetable.task WHERE task_id = $3
    RETURNING task_id
$$ LANGUAGE sql;

-- A job is a chain of one autonomous task (order 10) with at most one parameter row.
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
        SELECT chain_id, 10, job_kind, job_command, job_ignore_errors, TRUE FROM new_chain
        RETURNING task_id
    ), new_parameter AS (
        INSERT INTO timetable.parameter (task_id, order_id, value)
        SELECT task_id, 1, job_parameters FROM new_task, new_chain
    )
    SELECT chain_id FROM new_chain
$$ LANGUAGE sql;

-- The worker named worker_name listens on a channel of its name; the payload is its JSON.
CREATE OR REPLACE FUNCTION timetable.notify_chain_start(
    chain_id    BIGINT,
    worker_name TEXT,
    start_delay INTERVAL DEFAULT NULL
) RETURNS void AS $$
    SELECT pg_notify(worker_name,
        format('{"ConfigID": %s, "Command": "START", "Ts": %s, "Delay": %s}',
               chain_id,
               EXTRACT(epoch FROM clock_timestamp())::bigint,
               COALESCE(EXTRACT(epoch FROM start_delay)::bigint, 0)))
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.notify_chain_stop(
    chain_id    BIGINT,
    worker_name TEXT
) RETURNS void AS $$
    SELECT pg_notify(worker_name,
        format('{"ConfigID": %s, "Command": "STOP", "Ts": %s}',
               chain_id,
               EXTRACT(epoch FROM clock_timestamp())::bigint))
$$ LANGUAGE sql;

-- Swaps the task's order with its neighbour before (up) or after (down) it in the chain.
CREATE OR REPLACE FUNCTION timetable.move_task_up(IN task_id BIGINT) RETURNS boolean AS $$
    WITH current_task (ct_chain_id, ct_id, ct_order) AS (
        SELECT chain_id, task_id, task_order FROM timetable.task WHERE task_id = $1
    ), pair (t_id, t_new_order) AS (
        SELECT task_id, COALESCE(LAG(task_order) OVER w, LEAD(task_order) OVER w)
          FROM timetable.task t, current_task ct
         WHERE chain_id = ct_chain_id AND (task_order < ct_order OR task_id = ct_id)
        WINDOW w AS (PARTITION BY chain_id ORDER BY ABS(task_order - ct_order))
         LIMIT 2
    ), moved AS (
        UPDATE timetable.task t SET task_order = t_new_order
          FROM pair WHERE pair.t_id = t.task_id AND pair.t_new_order IS NOT NULL
        RETURNING true
    )
    SELECT COUNT(*) > 0 FROM moved
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.move_task_down(IN task_id BIGINT) RETURNS boolean AS $$
    WITH current_task (ct_chain_id, ct_id, ct_order) AS (
        SELECT chain_id, task_id, task_order FROM timetable.task WHERE task_id = $1
    ), pair (t_id, t_new_order) AS (
        SELECT task_id, COALESCE(LAG(task_order) OVER w, LEAD(task_order) OVER w)
          FROM timetable.task t, current_task ct
         WHERE chain_id = ct_chain_id AND (task_order > ct_order OR task_id = ct_id)
        WINDOW w AS (PARTITION BY chain_id ORDER BY ABS(task_order - ct_order))
         LIMIT 2
    ), moved AS (
        UPDATE timetable.task t SET task_order = t_new_order
          FROM pair WHERE pair.t_id = t.task_id AND pair.t_new_order IS NOT NULL
        RETURNING true
    )
    SELECT COUNT(*) > 0 FROM moved
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.delete_task(IN task_id BIGINT) RETURNS boolean AS $$
    WITH gone AS (DELETE FROM timetable.task WHERE task_id = $1 RETURNING task_id)
    SELECT EXISTS (SELECT 1 FROM gone)
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.delete_job(IN job_name TEXT) RETURNS boolean AS $$
    WITH gone AS (DELETE FROM timetable.chain WHERE chain.chain_name = $1 RETURNING chain_id)
    SELECT EXISTS (SELECT 1 FROM gone)
$$ LANGUAGE sql;
