-- Hourglass schema, version 16.
-- Triggers: starts that are not the clock. chain_trigger holds one of a chain (the chain it
-- starts); kind 'after' starts it when runs of its upstream chains (chain_trigger_upstream)
-- end in on_state ('succeeded'; 'failed', which counts a timeout; or 'finished', any end).
-- within_ms 0: the end of any one upstream's run starts a run; above 0: once every upstream
-- has such an end within within_ms of each other, counting only each upstream's ends after
-- the last one a run was started on (used_at, used_run: its end time, then its run id for
-- ends in the same millisecond), so one end never serves two runs.
-- A run a trigger started names it (trigger_id) and what fired it (trigger_key: here the
-- upstream run's id); UNIQUE (trigger_id, trigger_key) makes one upstream end start at most
-- one run, however often its transaction is tried, and the run is written in the
-- transaction that ends the upstream run, so no engine's restart between the two loses it.
CREATE TABLE chain_trigger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    chain_id      INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('after')),
    on_state      TEXT    NOT NULL DEFAULT 'succeeded'
                  CHECK (on_state IN ('succeeded', 'failed', 'finished')),
    within_ms     BIGINT  NOT NULL DEFAULT 0 CHECK (within_ms >= 0),
    paused        INTEGER NOT NULL DEFAULT 0,
    settings      TEXT    NOT NULL DEFAULT '{}',
    created_at    BIGINT  NOT NULL
);
CREATE INDEX chain_trigger_chain ON chain_trigger(chain_id);

CREATE TABLE chain_trigger_upstream (
    trigger_id INTEGER NOT NULL REFERENCES chain_trigger(id) ON DELETE CASCADE,
    chain_id   INTEGER NOT NULL REFERENCES chain(id) ON DELETE CASCADE,
    used_at    BIGINT  NOT NULL DEFAULT 0,
    used_run   BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (trigger_id, chain_id)
);
CREATE INDEX chain_trigger_upstream_chain ON chain_trigger_upstream(chain_id);

ALTER TABLE run ADD COLUMN trigger_id INTEGER REFERENCES chain_trigger(id) ON DELETE SET NULL;
ALTER TABLE run ADD COLUMN trigger_key TEXT;
CREATE UNIQUE INDEX run_trigger_key ON run(trigger_id, trigger_key);
-- "All within a window" reads each upstream's ends of the window only.
CREATE INDEX run_chain_finished ON run(chain_id, finished_at);

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
