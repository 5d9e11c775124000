-- hourglass: foreign keys off
-- Hourglass schema, version 17. File triggers (kind 'file'): a glob the engine watches; what
-- it has seen of each file (file_trigger_seen) survives the engine, so a start compares the
-- folder with it and what arrived meanwhile goes through the trigger's misfire policy. A run
-- a file started is keyed 'path|inode|size|mtime_ms': one run per file version, as one run
-- per (schedule, fire time). The kinds 'desktop' and 'webhook' are reserved for what comes.
-- SQLite cannot change a CHECK: chain_trigger is rebuilt (the migrator turns foreign keys
-- off around this file, so dropping the old table neither cascades to the upstreams nor
-- clears run.trigger_id, and checks them before it commits). The view and the run trigger
-- that read chain_trigger are dropped first and made again unchanged (016's text).
DROP TRIGGER run_starts_chain_triggers;
DROP VIEW chain_trigger_end;

CREATE TABLE chain_trigger_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id      INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('after', 'file', 'desktop', 'webhook')),
    on_state      TEXT    NOT NULL DEFAULT 'succeeded'
                  CHECK (on_state IN ('succeeded', 'failed', 'finished')),
    within_ms     BIGINT  NOT NULL DEFAULT 0 CHECK (within_ms >= 0),
    paused        INTEGER NOT NULL DEFAULT 0,
    settings      TEXT    NOT NULL DEFAULT '{}',
    created_at    BIGINT  NOT NULL,
    -- What the engine watching it says of it now ('' all is well): the folder is gone, not
    -- readable, polled because inotify cannot see it. watch_note_at: when it was said.
    watch_note    TEXT    NOT NULL DEFAULT '',
    watch_note_at BIGINT  NOT NULL DEFAULT 0,
    -- When the engine first looked at the folder (NULL: never). Files there before then
    -- are what was there when the trigger was made, not arrivals.
    baseline_at   BIGINT
);
INSERT INTO chain_trigger_new (id, chain_id, kind, on_state, within_ms, paused, settings,
                               created_at)
SELECT id, chain_id, kind, on_state, within_ms, paused, settings, created_at FROM chain_trigger;
DROP TABLE chain_trigger;
ALTER TABLE chain_trigger_new RENAME TO chain_trigger;
CREATE INDEX chain_trigger_chain ON chain_trigger(chain_id);

-- The versions of files a file trigger has seen (and started runs for, or took as the
-- baseline). waiting: an arrival not yet started ('' none; created, modified, deleted),
-- kept while the storm guard gathers it, so a stop in between loses nothing.
CREATE TABLE file_trigger_seen (
    trigger_id INTEGER NOT NULL REFERENCES chain_trigger(id) ON DELETE CASCADE,
    path       TEXT    NOT NULL,
    inode      BIGINT  NOT NULL,
    size       BIGINT  NOT NULL,
    mtime_ms   BIGINT  NOT NULL,
    waiting    TEXT    NOT NULL DEFAULT ''
               CHECK (waiting IN ('', 'created', 'modified', 'deleted')),
    PRIMARY KEY (trigger_id, path)
);
CREATE INDEX file_trigger_waiting ON file_trigger_seen(trigger_id) WHERE waiting <> '';

-- A trigger added, removed, paused or changed is a change to its chain: the engine that
-- watches files reloads what it watches.
CREATE TRIGGER chain_trigger_inserted AFTER INSERT ON chain_trigger BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'chain', NEW.chain_id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER chain_trigger_updated AFTER UPDATE OF chain_id, paused, settings ON chain_trigger
WHEN NEW.chain_id IS NOT OLD.chain_id OR NEW.paused IS NOT OLD.paused
  OR NEW.settings IS NOT OLD.settings BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'chain', NEW.chain_id FROM definition_revision WHERE id = 1;
END;
CREATE TRIGGER chain_trigger_deleted AFTER DELETE ON chain_trigger BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'chain', OLD.chain_id FROM definition_revision WHERE id = 1;
END;

-- Whether a run's end is one a trigger's on_state counts.
CREATE VIEW chain_trigger_end AS
SELECT u.trigger_id, r.id AS run_id, r.chain_id, r.state, r.finished_at
FROM chain_trigger_upstream u
JOIN chain_trigger t ON t.id = u.trigger_id
JOIN run r ON r.chain_id = u.chain_id
WHERE r.finished_at IS NOT NULL
  AND ((t.on_state = 'succeeded' AND r.state = 'succeeded')
       OR (t.on_state = 'failed' AND r.state IN ('failed', 'timed_out'))
       OR (t.on_state = 'finished'
           AND r.state IN ('succeeded', 'failed', 'cancelled', 'timed_out')));

CREATE TRIGGER run_starts_chain_triggers AFTER UPDATE OF state ON run
WHEN NEW.state IN ('succeeded', 'failed', 'cancelled', 'timed_out')
 AND OLD.state NOT IN ('succeeded', 'failed', 'cancelled', 'timed_out')
 AND EXISTS (SELECT 1 FROM chain_trigger_upstream u WHERE u.chain_id = NEW.chain_id) BEGIN
    INSERT OR IGNORE INTO run (chain_id, trigger, scheduled_for, state, parameters, created_at,
        trigger_id, trigger_key)
    SELECT t.chain_id, 'trigger', e.at, 'queued',
        json_object('trigger.upstream_run', CAST(NEW.id AS TEXT),
                    'trigger.upstream_state', NEW.state,
                    'trigger.upstream_chain', (SELECT p.name || '/' || c.name FROM chain c
                                               JOIN project p ON p.id = c.project_id
                                               WHERE c.id = NEW.chain_id)),
        e.at, t.id, CAST(NEW.id AS TEXT)
    FROM chain_trigger t
    JOIN chain_trigger_upstream u ON u.trigger_id = t.id AND u.chain_id = NEW.chain_id
    JOIN chain d ON d.id = t.chain_id AND d.enabled = 1
    JOIN (SELECT COALESCE(NEW.finished_at,
                          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) AS at) e
    WHERE t.paused = 0
      AND ((t.on_state = 'succeeded' AND NEW.state = 'succeeded')
           OR (t.on_state = 'failed' AND NEW.state IN ('failed', 'timed_out'))
           OR t.on_state = 'finished')
      AND (t.within_ms = 0
           OR NOT EXISTS (
               SELECT 1 FROM chain_trigger_upstream o
               WHERE o.trigger_id = t.id AND o.chain_id <> NEW.chain_id
                 AND NOT EXISTS (
                     SELECT 1 FROM chain_trigger_end y
                     WHERE y.trigger_id = t.id AND y.chain_id = o.chain_id
                       AND (y.finished_at > o.used_at
                            OR (y.finished_at = o.used_at AND y.run_id > o.used_run))
                       AND y.finished_at >= e.at - t.within_ms)));
    -- The ends of every upstream up to its latest are used by the run just started.
    UPDATE chain_trigger_upstream
    SET used_at = COALESCE((SELECT y.finished_at FROM chain_trigger_end y
                            WHERE y.trigger_id = chain_trigger_upstream.trigger_id
                              AND y.chain_id = chain_trigger_upstream.chain_id
                            ORDER BY y.finished_at DESC, y.run_id DESC LIMIT 1), used_at),
        used_run = COALESCE((SELECT y.run_id FROM chain_trigger_end y
                             WHERE y.trigger_id = chain_trigger_upstream.trigger_id
                               AND y.chain_id = chain_trigger_upstream.chain_id
                             ORDER BY y.finished_at DESC, y.run_id DESC LIMIT 1), used_run)
    WHERE trigger_id IN (SELECT t.id FROM chain_trigger t WHERE t.within_ms > 0
                         AND EXISTS (SELECT 1 FROM run r WHERE r.trigger_id = t.id
                                     AND r.trigger_key = CAST(NEW.id AS TEXT)));
END;
