-- Hourglass schema, version 15.
-- Flood control. A channel that would get more than its limit of messages in its window, or
-- more than its daily cap, gets one digest instead: the rows held back wait as 'held', and
-- digest_id names the digest row that told of them (NULL until one did). A digest row is an
-- outbox row of its own (event 'digest', or 'cap' for the message that says the cap is
-- reached), keyed by its channel and window so two engines add one.
-- passed_at: when flood control let the message go (its first attempt; a digest's too): the
-- limit counts these, so a receiver that is away cannot have every message let through to
-- be sent at once when it is back.
ALTER TABLE notify_outbox ADD COLUMN digest_id INTEGER;
ALTER TABLE notify_outbox ADD COLUMN passed_at BIGINT;
CREATE INDEX notify_outbox_held ON notify_outbox(channel_id, state, digest_id);
CREATE INDEX notify_outbox_passed ON notify_outbox(channel_id, passed_at);

-- A route without a channel goes to the default e-mail channel, whichever it is when the
-- message is written (crontab MAILTO routes): none yet, and the route waits for one. SQLite
-- cannot drop a NOT NULL, so the table is made again (the triggers name it and the view, and
-- find them again by name).
CREATE TEMP TABLE notify_route_copy AS SELECT * FROM notify_route;
DROP VIEW notify_chain_route;
DROP TABLE notify_route;
CREATE TABLE notify_route (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  INTEGER REFERENCES notify_channel(id) ON DELETE CASCADE,
    project_id  INTEGER REFERENCES project(id) ON DELETE CASCADE,
    chain_id    INTEGER REFERENCES chain(id) ON DELETE CASCADE,
    events      TEXT    NOT NULL CHECK (events LIKE ',%,'),
    recipients  TEXT    NOT NULL DEFAULT '',
    CHECK (chain_id IS NULL OR project_id IS NULL)
);
INSERT INTO notify_route (id, channel_id, project_id, chain_id, events, recipients)
    SELECT id, channel_id, project_id, chain_id, events, recipients FROM notify_route_copy;
DROP TABLE notify_route_copy;
CREATE INDEX notify_route_chain ON notify_route(chain_id);
CREATE INDEX notify_route_project ON notify_route(project_id);

-- The routes that apply to a chain: its own, else its project's, else the global ones; a
-- route without a channel names the default e-mail channel, and none while there is none.
CREATE VIEW notify_chain_route AS
SELECT c.id AS chain_id, r.id AS route_id,
       COALESCE(r.channel_id, (SELECT d.id FROM notify_channel d
                               WHERE d.is_default = 1 AND d.kind = 'email'
                               ORDER BY d.id LIMIT 1)) AS channel_id,
       r.events, r.recipients
FROM chain c JOIN notify_route r
  ON r.chain_id = c.id
  OR (r.project_id = c.project_id
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.chain_id = c.id))
  OR (r.chain_id IS NULL AND r.project_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.chain_id = c.id)
      AND NOT EXISTS (SELECT 1 FROM notify_route o WHERE o.project_id = c.project_id))
WHERE r.channel_id IS NOT NULL
   OR EXISTS (SELECT 1 FROM notify_channel d WHERE d.is_default = 1 AND d.kind = 'email');
