-- Hourglass schema, version 5.
-- A change feed: every change to what the engine schedules names the chain it touched (and
-- what in it: the chain itself, a task, a dependency, a schedule), so a running engine
-- reloads that chain alone instead of every schedule, chain and run history.
--
-- Each change takes the next definition_revision in the same statement. The UPDATE of that
-- one row locks it until commit, so revisions are committed in the order they were taken:
-- an engine that has read up to revision R never sees a change below R appear later. Every
-- revision has at least one row here, so a missing revision means the feed was pruned past
-- a reader, which then reloads everything.

CREATE TABLE definition_change (
    revision   BIGINT NOT NULL,
    chain_id   BIGINT NOT NULL,
    kind       TEXT   NOT NULL CHECK (kind IN ('chain', 'task', 'dependency', 'schedule')),
    item_id    BIGINT NOT NULL,
    changed_at BIGINT NOT NULL DEFAULT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT
);
CREATE INDEX definition_change_revision ON definition_change(revision);
CREATE INDEX definition_change_age ON definition_change(changed_at);

CREATE FUNCTION hourglass_note_changes(what TEXT, chains BIGINT[], items BIGINT[]) RETURNS void
LANGUAGE plpgsql AS '
DECLARE
    taken BIGINT;
BEGIN
    IF chains IS NULL OR cardinality(chains) = 0 THEN
        RETURN;
    END IF;
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision INTO taken;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT DISTINCT taken, c, what, i FROM unnest(chains, items) AS u(c, i) WHERE c IS NOT NULL;
END';

-- Statement triggers with transition tables: a statement touching many rows takes one
-- revision. PostgreSQL allows no column list on them, so each UPDATE compares the columns
-- the engine runs on itself (a chain's description, a task's canvas position: no change).
CREATE FUNCTION hourglass_chain_changes() RETURNS trigger LANGUAGE plpgsql AS '
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
               n.parameters)
              IS DISTINCT FROM
              (o.project_id, o.name, o.enabled, o.max_instances, o.overlap, o.timeout_s,
               o.self_destruct, o.exclusive, o.client_name, o.on_failure, o.priority, o.notify,
               o.parameters);
    END IF;
    PERFORM hourglass_note_changes(''chain'', chains, chains);
    RETURN NULL;
END';

CREATE FUNCTION hourglass_task_changes() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    chains BIGINT[];
    items BIGINT[];
BEGIN
    IF TG_OP = ''INSERT'' THEN
        SELECT array_agg(chain_id), array_agg(id) INTO chains, items FROM new_rows;
    ELSIF TG_OP = ''DELETE'' THEN
        SELECT array_agg(chain_id), array_agg(id) INTO chains, items FROM old_rows;
    ELSE
        SELECT array_agg(c), array_agg(i) INTO chains, items FROM (
            SELECT n.chain_id, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE (n.chain_id, n.name, n.kind, n.command, n.arguments, n.working_dir,
                   n.environment, n.connection_id, n.ignore_error, n.autonomous, n.timeout_s,
                   n.max_retries, n.retry_delay_s, n.retry_backoff, n.priority)
                  IS DISTINCT FROM
                  (o.chain_id, o.name, o.kind, o.command, o.arguments, o.working_dir,
                   o.environment, o.connection_id, o.ignore_error, o.autonomous, o.timeout_s,
                   o.max_retries, o.retry_delay_s, o.retry_backoff, o.priority)
            UNION
            SELECT o.chain_id, o.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.chain_id <> o.chain_id) AS moved(c, i);
    END IF;
    PERFORM hourglass_note_changes(''task'', chains, items);
    RETURN NULL;
END';

-- A dependency names its chain through its task; when the task went in the same statement
-- (a cascade), the task's own change has named the chain already.
CREATE FUNCTION hourglass_dependency_changes() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    chains BIGINT[];
    items BIGINT[];
BEGIN
    IF TG_OP = ''INSERT'' OR TG_OP = ''UPDATE'' THEN
        SELECT array_agg(t.chain_id), array_agg(d.task_id) INTO chains, items
        FROM new_rows d JOIN task t ON t.id = d.task_id;
    ELSE
        SELECT array_agg(t.chain_id), array_agg(d.task_id) INTO chains, items
        FROM old_rows d JOIN task t ON t.id = d.task_id;
    END IF;
    PERFORM hourglass_note_changes(''dependency'', chains, items);
    RETURN NULL;
END';

CREATE FUNCTION hourglass_schedule_changes() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    chains BIGINT[];
    items BIGINT[];
BEGIN
    IF TG_OP = ''INSERT'' THEN
        SELECT array_agg(chain_id), array_agg(id) INTO chains, items FROM new_rows;
    ELSIF TG_OP = ''DELETE'' THEN
        SELECT array_agg(chain_id), array_agg(id) INTO chains, items FROM old_rows;
    ELSE
        SELECT array_agg(c), array_agg(i) INTO chains, items FROM (
            SELECT n.chain_id, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE (n.chain_id, n.kind, n.expression, n.dialect, n.time_zone, n.misfire,
                   n.misfire_window_s, n.active_from, n.active_until, n.enabled)
                  IS DISTINCT FROM
                  (o.chain_id, o.kind, o.expression, o.dialect, o.time_zone, o.misfire,
                   o.misfire_window_s, o.active_from, o.active_until, o.enabled)
            UNION
            SELECT o.chain_id, o.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.chain_id <> o.chain_id) AS moved(c, i);
    END IF;
    PERFORM hourglass_note_changes(''schedule'', chains, items);
    RETURN NULL;
END';

DROP TRIGGER chain_revision ON chain;
DROP TRIGGER task_revision ON task;
DROP TRIGGER task_edit_revision ON task;
DROP TRIGGER dependency_revision ON dependency;
DROP TRIGGER schedule_revision ON schedule;
DROP FUNCTION hourglass_bump_definition_revision();

CREATE TRIGGER chain_inserted AFTER INSERT ON chain REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_chain_changes();
CREATE TRIGGER chain_updated AFTER UPDATE ON chain REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_chain_changes();
CREATE TRIGGER chain_deleted AFTER DELETE ON chain REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_chain_changes();

CREATE TRIGGER task_inserted AFTER INSERT ON task REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_task_changes();
CREATE TRIGGER task_updated AFTER UPDATE ON task REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_task_changes();
CREATE TRIGGER task_deleted AFTER DELETE ON task REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_task_changes();

CREATE TRIGGER dependency_inserted AFTER INSERT ON dependency REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_dependency_changes();
CREATE TRIGGER dependency_updated AFTER UPDATE ON dependency REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_dependency_changes();
CREATE TRIGGER dependency_deleted AFTER DELETE ON dependency REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_dependency_changes();

CREATE TRIGGER schedule_inserted AFTER INSERT ON schedule REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_schedule_changes();
CREATE TRIGGER schedule_updated AFTER UPDATE ON schedule REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_schedule_changes();
CREATE TRIGGER schedule_deleted AFTER DELETE ON schedule REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_schedule_changes();
