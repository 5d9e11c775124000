-- Hourglass schema, version 15.
-- Flood control. A channel that would get more than its limit of messages in its window, or
-- more than its daily cap, gets one digest instead: the rows held back wait as 'held', and
-- digest_id names the digest row that told of them (NULL until one did). A digest row is an
-- outbox row of its own (event 'digest', or 'cap' for the message that says the cap is
-- reached), keyed by its channel and window so two engines add one.
-- passed_at: when flood control let the message go (its first attempt; a digest's too): the
-- limit counts these, so a receiver that is away cannot have every message let through to
-- be sent at once when it is back.
ALTER TABLE notify_outbox ADD COLUMN digest_id BIGINT;
ALTER TABLE notify_outbox ADD COLUMN passed_at BIGINT;
CREATE INDEX notify_outbox_held ON notify_outbox(channel_id, state, digest_id);
CREATE INDEX notify_outbox_passed ON notify_outbox(channel_id, passed_at);

-- A route without a channel goes to the default e-mail channel, whichever it is when the
-- message is written (crontab MAILTO routes): none yet, and the route waits for one.
ALTER TABLE notify_route ALTER COLUMN channel_id DROP NOT NULL;

-- The routes that apply to a chain: its own, else its project's, else the global ones; a
-- route without a channel names the default e-mail channel, and none while there is none.
CREATE OR REPLACE VIEW notify_chain_route AS
SELECT c.id AS chain_id, r.id AS route_id,
       COALESCE(r.channel_id, (SELECT d.id FROM notify_channel d
                               WHERE d.is_default AND d.kind = 'email'
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
   OR EXISTS (SELECT 1 FROM notify_channel d WHERE d.is_default AND d.kind = 'email');
