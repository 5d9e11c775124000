-- Hourglass schema, version 9.
-- Run events for every window on a shared store: a statement that changes runs' states
-- notifies channel 'hourglass' with 'runs ' and the ids it changed, so a window shows what
-- other engines start and end within a second, without polling. A statement trigger with
-- transition tables: one notification per statement, not per row, and none for an update
-- that leaves the state as it was (a heartbeat, a claim). A payload holds at most 8000
-- bytes: past 500 ids it says 'runs *', and a window reads its lists again.
CREATE FUNCTION hourglass_run_events() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    ids BIGINT[];
BEGIN
    SELECT array_agg(a.id ORDER BY a.id) INTO ids
    FROM run_after a JOIN run_before b ON a.id = b.id
    WHERE a.state IS DISTINCT FROM b.state;
    IF ids IS NULL THEN
        RETURN NULL;
    ELSIF cardinality(ids) > 500 THEN
        PERFORM pg_notify(''hourglass'', ''runs *'');
    ELSE
        PERFORM pg_notify(''hourglass'', ''runs '' || array_to_string(ids, '',''));
    END IF;
    RETURN NULL;
END';

CREATE TRIGGER run_events AFTER UPDATE ON run
REFERENCING OLD TABLE AS run_before NEW TABLE AS run_after
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_run_events();
