-- Hourglass schema, version 5.
-- A change feed: every change to what the engine schedules names the chain it touched (and
-- what in it: the chain itself, a task, a dependency, a schedule), so a running engine
-- reloads that chain alone instead of every schedule, chain and run history.
-- Each changed row takes the next definition_revision. SQLite has one writer at a time, so
-- revisions are committed in order. Every revision has at least one row here, so a missing
-- revision means the feed was pruned past a reader, which then reloads everything.
-- Only the columns the engine runs on count: a chain's description or a task's canvas
-- position is no change.

CREATE TABLE definition_change (
    revision   INTEGER NOT NULL,
    chain_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('chain', 'task', 'dependency', 'schedule')),
    item_id    INTEGER NOT NULL,
    changed_at INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
);
CREATE INDEX definition_change_revision ON definition_change(revision);
CREATE INDEX definition_change_age ON definition_change(changed_at);

DROP TRIGGER chain_insert_revision;
DROP TRIGGER chain_update_revision;
DROP TRIGGER chain_delete_revision;
DROP TRIGGER task_insert_revision;
DROP TRIGGER task_update_revision;
DROP TRIGGER task_delete_revision;
DROP TRIGGER dependency_insert_revision;
DROP TRIGGER dependency_update_revision;
DROP TRIGGER dependency_delete_revision;
DROP TRIGGER schedule_insert_revision;
DROP TRIGGER schedule_update_revision;
DROP TRIGGER schedule_delete_revision;

CREATE TRIGGER chain_inserted AFTER INSERT ON chain BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.id, 'chain', NEW.id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER chain_updated AFTER UPDATE OF project_id, name, enabled, max_instances, overlap, timeout_s, self_destruct, exclusive, client_name, on_failure, priority, notify, parameters ON chain
WHEN NEW.project_id IS NOT OLD.project_id OR NEW.name IS NOT OLD.name OR NEW.enabled IS NOT OLD.enabled OR NEW.max_instances IS NOT OLD.max_instances OR NEW.overlap IS NOT OLD.overlap OR NEW.timeout_s IS NOT OLD.timeout_s OR NEW.self_destruct IS NOT OLD.self_destruct OR NEW.exclusive IS NOT OLD.exclusive OR NEW.client_name IS NOT OLD.client_name OR NEW.on_failure IS NOT OLD.on_failure OR NEW.priority IS NOT OLD.priority OR NEW.notify IS NOT OLD.notify OR NEW.parameters IS NOT OLD.parameters BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.id, 'chain', NEW.id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER chain_deleted AFTER DELETE ON chain BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.id, 'chain', OLD.id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER task_inserted AFTER INSERT ON task BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'task', NEW.id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER task_updated AFTER UPDATE OF chain_id, name, kind, command, arguments, working_dir, environment, connection_id, ignore_error, autonomous, timeout_s, max_retries, retry_delay_s, retry_backoff, priority ON task
WHEN NEW.chain_id IS NOT OLD.chain_id OR NEW.name IS NOT OLD.name OR NEW.kind IS NOT OLD.kind OR NEW.command IS NOT OLD.command OR NEW.arguments IS NOT OLD.arguments OR NEW.working_dir IS NOT OLD.working_dir OR NEW.environment IS NOT OLD.environment OR NEW.connection_id IS NOT OLD.connection_id OR NEW.ignore_error IS NOT OLD.ignore_error OR NEW.autonomous IS NOT OLD.autonomous OR NEW.timeout_s IS NOT OLD.timeout_s OR NEW.max_retries IS NOT OLD.max_retries OR NEW.retry_delay_s IS NOT OLD.retry_delay_s OR NEW.retry_backoff IS NOT OLD.retry_backoff OR NEW.priority IS NOT OLD.priority BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'task', NEW.id FROM definition_revision WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'task', OLD.id FROM definition_revision WHERE id = 1 AND OLD.chain_id <> NEW.chain_id;
END;
CREATE TRIGGER task_deleted AFTER DELETE ON task BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'task', OLD.id FROM definition_revision WHERE id = 1;
END;
-- A dependency names its chain through its task; when the task is gone (a cascade), the
-- task's own change has named the chain already.
CREATE TRIGGER dependency_inserted AFTER INSERT ON dependency
WHEN EXISTS (SELECT 1 FROM task WHERE id = NEW.task_id) BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, (SELECT chain_id FROM task WHERE id = NEW.task_id), 'dependency', NEW.task_id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER dependency_updated AFTER UPDATE ON dependency
WHEN EXISTS (SELECT 1 FROM task WHERE id = NEW.task_id) BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, (SELECT chain_id FROM task WHERE id = NEW.task_id), 'dependency', NEW.task_id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER dependency_deleted AFTER DELETE ON dependency
WHEN EXISTS (SELECT 1 FROM task WHERE id = OLD.task_id) BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, (SELECT chain_id FROM task WHERE id = OLD.task_id), 'dependency', OLD.task_id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER schedule_inserted AFTER INSERT ON schedule BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'schedule', NEW.id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER schedule_updated AFTER UPDATE OF chain_id, kind, expression, dialect, time_zone, misfire, misfire_window_s, active_from, active_until, enabled ON schedule
WHEN NEW.chain_id IS NOT OLD.chain_id OR NEW.kind IS NOT OLD.kind OR NEW.expression IS NOT OLD.expression OR NEW.dialect IS NOT OLD.dialect OR NEW.time_zone IS NOT OLD.time_zone OR NEW.misfire IS NOT OLD.misfire OR NEW.misfire_window_s IS NOT OLD.misfire_window_s OR NEW.active_from IS NOT OLD.active_from OR NEW.active_until IS NOT OLD.active_until OR NEW.enabled IS NOT OLD.enabled BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'schedule', NEW.id FROM definition_revision WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'schedule', OLD.id FROM definition_revision WHERE id = 1 AND OLD.chain_id <> NEW.chain_id;
END;
CREATE TRIGGER schedule_deleted AFTER DELETE ON schedule BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'schedule', OLD.id FROM definition_revision WHERE id = 1;
END;
