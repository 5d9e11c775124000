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
    id          BIGSERIAL PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    kind        TEXT    NOT NULL CHECK (kind IN ('email', 'webhook', 'desktop')),
    url         TEXT    NOT NULL DEFAULT '',
    settings    TEXT    NOT NULL DEFAULT '{}',
    secret_key  TEXT    NOT NULL DEFAULT '',
    is_default  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT  NOT NULL
);

CREATE TABLE notify_route (
    id          BIGSERIAL PRIMARY KEY,
    channel_id  BIGINT  NOT NULL REFERENCES notify_channel(id) ON DELETE CASCADE,
    project_id  BIGINT  REFERENCES project(id) ON DELETE CASCADE,
    chain_id    BIGINT  REFERENCES chain(id) ON DELETE CASCADE,
    events      TEXT    NOT NULL CHECK (events LIKE ',%,'),
    recipients  TEXT    NOT NULL DEFAULT '',
    CHECK (chain_id IS NULL OR project_id IS NULL)
);
CREATE INDEX notify_route_chain ON notify_route(chain_id);
CREATE INDEX notify_route_project ON notify_route(project_id);

CREATE TABLE notify_outbox (
    id              BIGSERIAL PRIMARY KEY,
    dedupe_key      TEXT    NOT NULL UNIQUE,
    channel_id      BIGINT  NOT NULL REFERENCES notify_channel(id) ON DELETE CASCADE,
    route_id        BIGINT,
    event           TEXT    NOT NULL,
    run_id          BIGINT,
    chain_id        BIGINT,
    subject_id      BIGINT,
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

CREATE FUNCTION hourglass_notify_run() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN
INSERT INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id, chain_id,
    subject_id, recipients, next_attempt_at, delivery_id, created_at)
SELECT ''run:'' || NEW.id || '':'' || e.channel_id, e.channel_id, e.route_id, e.event, NEW.id,
    NEW.chain_id, NEW.id, e.recipients, e.at, md5(random()::text || clock_timestamp()::text), e.at
FROM (SELECT r.channel_id, r.route_id, r.recipients,
          COALESCE(NEW.finished_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS at,
          CASE
              WHEN NEW.state IN (''failed'', ''timed_out'') AND r.events LIKE ''%,failure,%''
                  THEN ''failure''
              WHEN NEW.state = ''succeeded'' AND r.events LIKE ''%,recovery,%''
                   AND (SELECT p.state FROM run p WHERE p.chain_id = NEW.chain_id
                        AND p.id < NEW.id AND p.state IN (''succeeded'', ''failed'', ''timed_out'')
                        ORDER BY p.id DESC LIMIT 1) IN (''failed'', ''timed_out'')
                  THEN ''recovery''
              WHEN NEW.state = ''succeeded'' AND r.events LIKE ''%,success,%'' THEN ''success''
              WHEN NEW.state <> ''cancelled'' AND r.events LIKE ''%,output,%'' THEN ''output''
          END AS event
      FROM notify_chain_route r WHERE r.chain_id = NEW.chain_id) e
WHERE e.event IS NOT NULL
ORDER BY CASE e.event WHEN ''failure'' THEN 0 WHEN ''recovery'' THEN 1 WHEN ''success'' THEN 2
         ELSE 3 END, e.route_id
ON CONFLICT (dedupe_key) DO NOTHING;
RETURN NULL;
END';

CREATE TRIGGER run_notify AFTER UPDATE OF state ON run FOR EACH ROW
WHEN (NEW.state IN ('succeeded', 'failed', 'cancelled', 'timed_out')
      AND OLD.state NOT IN ('succeeded', 'failed', 'cancelled', 'timed_out'))
EXECUTE FUNCTION hourglass_notify_run();

CREATE FUNCTION hourglass_notify_alert() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN
INSERT INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id, chain_id,
    subject_id, recipients, next_attempt_at, delivery_id, created_at)
SELECT ''alert:'' || NEW.id || '':'' || r.channel_id, r.channel_id, r.route_id, ''alert'', NEW.run_id,
    NEW.chain_id, NEW.id, r.recipients, NEW.raised_at, md5(random()::text || clock_timestamp()::text), NEW.raised_at
FROM notify_chain_route r WHERE r.chain_id = NEW.chain_id AND r.events LIKE ''%,alert,%''
ON CONFLICT (dedupe_key) DO NOTHING;
RETURN NULL;
END';

CREATE TRIGGER alert_notify AFTER INSERT ON alert FOR EACH ROW
EXECUTE FUNCTION hourglass_notify_alert();

CREATE FUNCTION hourglass_notify_missed() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN
INSERT INTO notify_outbox (dedupe_key, channel_id, route_id, event, run_id, chain_id,
    subject_id, recipients, next_attempt_at, delivery_id, created_at)
SELECT ''missed:'' || NEW.id || '':'' || r.channel_id, r.channel_id, r.route_id, ''missed'', NULL,
    NEW.chain_id, NEW.id, r.recipients, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, md5(random()::text || clock_timestamp()::text), (extract(epoch FROM clock_timestamp()) * 1000)::bigint
FROM notify_chain_route r WHERE r.chain_id = NEW.chain_id AND r.events LIKE ''%,missed,%''
ON CONFLICT (dedupe_key) DO NOTHING;
RETURN NULL;
END';

CREATE TRIGGER missed_notify AFTER UPDATE OF inbox ON occurrence FOR EACH ROW
WHEN (NEW.inbox = 'pending' AND OLD.inbox <> 'pending')
EXECUTE FUNCTION hourglass_notify_missed();

CREATE TRIGGER missed_insert_notify AFTER INSERT ON occurrence FOR EACH ROW
WHEN (NEW.inbox = 'pending')
EXECUTE FUNCTION hourglass_notify_missed();
