-- Hourglass schema, version 14.
-- Notifications. notify_channel: where a message goes (an e-mail server and its recipients,
-- a webhook); its secrets (a password, a signing secret, a URL that carries a token) are in
-- the keychain, never here: secret_key names them there, url is '' when the URL is secret.
-- notify_route: which events of which chains go to a channel; a chain's routes replace its
-- project's, a project's replace the global ones (chain_id and project_id both NULL). events
-- is a list with a comma at each end (',failure,recovery,'), so a LIKE finds one.
-- notify_outbox: one row per message owed. The triggers below write it in the transaction
-- that ends the run (or raises the alert, or puts a fire in the missed-runs inbox), so no
-- message is lost between the change and its delivery; dedupe_key makes a second write of the
-- same change (a transaction retried) add nothing. One message per run and channel: the
-- strongest event a route asks for (failure, recovery, success, output). The deliverer
-- claims a row (claimed_by/claimed_until; FOR UPDATE SKIP LOCKED on PostgreSQL), sends it,
-- and writes its state, attempts and the receiver's last answer. delivery_id goes with every
-- attempt, so a receiver drops a repeat after an ambiguous answer (at-least-once delivery).
CREATE TABLE notify_channel (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    kind        TEXT    NOT NULL CHECK (kind IN ('email', 'webhook', 'desktop')),
    url         TEXT    NOT NULL DEFAULT '',
    settings    TEXT    NOT NULL DEFAULT '{}',
    secret_key  TEXT    NOT NULL DEFAULT '',
    is_default  INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL
);

CREATE TABLE notify_route (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  INTEGER NOT NULL REFERENCES notify_channel(id) ON DELETE CASCADE,
    project_id  INTEGER REFERENCES project(id) ON DELETE CASCADE,
    chain_id    INTEGER REFERENCES chain(id) ON DELETE CASCADE,
    events      TEXT    NOT NULL CHECK (events LIKE ',%,'),
    recipients  TEXT    NOT NULL DEFAULT '',
    CHECK (chain_id IS NULL OR project_id IS NULL)
);
CREATE INDEX notify_route_chain ON notify_route(chain_id);
CREATE INDEX notify_route_project ON notify_route(project_id);

CREATE TABLE notify_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe_key      TEXT    NOT NULL UNIQUE,
    channel_id      INTEGER NOT NULL REFERENCES notify_channel(id) ON DELETE CASCADE,
    route_id        INTEGER,
    event           TEXT    NOT NULL,
    run_id          INTEGER,
    chain_id        INTEGER,
    subject_id      INTEGER,
    recipients      TEXT    NOT NULL DEFAULT '',
    state           TEXT    NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'sent', 'failed', 'skipped', 'held')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT  NOT NULL,
    last_answer     TEXT    NOT NULL DEFAULT '',
    subject         TEXT    NOT NULL DEFAULT '',
    body            TEXT    NOT NULL DEFAULT '',
    delivery_id     TEXT    NOT NULL,
    claimed_by      TEXT    NOT NULL DEFAULT '',
    claimed_until   BIGINT  NOT NULL DEFAULT 0,
    created_at      BIGINT  NOT NULL,
    sent_at         BIGINT
);
CREATE INDEX notify_outbox_due ON notify_outbox(state, next_attempt_at);
CREATE INDEX notify_outbox_channel ON notify_outbox(channel_id, created_at);

-- The routes that apply to a chain: its own, else its project's, else the global ones.
CREATE VIEW notify_chain_route AS
SELECT c.id AS chain_id, r.id AS route_id, r.channel_id, r.events, r.recipients
FROM chain c JOIN notify_route r
  ON r.chain_id = c.id
  OR (r.project_id = c.project_id
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.chain_id = c.id))
  OR (r.chain_id IS NULL AND r.project_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.chain_id = c.id)
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.project_id = c.project_id));

CREATE TRIGGER run_notify AFTER UPDATE OF state ON run
WHEN NEW.state IN ('succeeded', 'failed', 'cancelled', 'timed_out')
 AND OLD.state NOT IN ('succeeded', 'failed', 'cancelled', 'timed_out')
 AND EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'run:' || NEW.id || ':' || e.channel_id, e.channel_id, e.route_id, e.event, NEW.id,
        NEW.chain_id, NEW.id, e.recipients, e.at, lower(hex(randomblob(16))), e.at
    FROM (SELECT r.channel_id, r.route_id, r.recipients,
              COALESCE(NEW.finished_at,
                       CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) AS at,
              CASE
                  WHEN NEW.state IN ('failed', 'timed_out') AND r.events LIKE '%,failure,%'
                      THEN 'failure'
                  WHEN NEW.state = 'succeeded' AND r.events LIKE '%,recovery,%'
                       AND (SELECT p.state FROM run p WHERE p.chain_id = NEW.chain_id
                            AND p.id < NEW.id
                            AND p.state IN ('succeeded', 'failed', 'timed_out')
                            ORDER BY p.id DESC LIMIT 1) IN ('failed', 'timed_out')
                      THEN 'recovery'
                  WHEN NEW.state = 'succeeded' AND r.events LIKE '%,success,%' THEN 'success'
                  WHEN NEW.state <> 'cancelled' AND r.events LIKE '%,output,%' THEN 'output'
              END AS event
          FROM notify_chain_route r WHERE r.chain_id = NEW.chain_id) e
    WHERE e.event IS NOT NULL
    ORDER BY CASE e.event WHEN 'failure' THEN 0 WHEN 'recovery' THEN 1 WHEN 'success' THEN 2
             ELSE 3 END, e.route_id;
END;

CREATE TRIGGER alert_notify AFTER INSERT ON alert
WHEN EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'alert:' || NEW.id || ':' || r.channel_id, r.channel_id, r.route_id, 'alert',
        NEW.run_id, NEW.chain_id, NEW.id, r.recipients, NEW.raised_at,
        lower(hex(randomblob(16))), NEW.raised_at
    FROM notify_chain_route r
    WHERE r.chain_id = NEW.chain_id AND r.events LIKE '%,alert,%';
END;

CREATE TRIGGER missed_notify AFTER UPDATE OF inbox ON occurrence
WHEN NEW.inbox = 'pending' AND OLD.inbox <> 'pending' AND EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'missed:' || NEW.id || ':' || r.channel_id, r.channel_id, r.route_id, 'missed',
        NULL, NEW.chain_id, NEW.id, r.recipients,
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        lower(hex(randomblob(16))),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM notify_chain_route r
    WHERE r.chain_id = NEW.chain_id AND r.events LIKE '%,missed,%';
END;

CREATE TRIGGER missed_insert_notify AFTER INSERT ON occurrence
WHEN NEW.inbox = 'pending' AND EXISTS (SELECT 1 FROM notify_route) BEGIN
    INSERT OR IGNORE INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id,
        chain_id, subject_id, recipients, next_attempt_at, delivery_id, created_at)
    SELECT 'missed:' || NEW.id || ':' || r.channel_id, r.channel_id, r.route_id, 'missed',
        NULL, NEW.chain_id, NEW.id, r.recipients,
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        lower(hex(randomblob(16))),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM notify_chain_route r
    WHERE r.chain_id = NEW.chain_id AND r.events LIKE '%,missed,%';
END;
