-- Hourglass schema, version 10.
-- Claims read each chain's oldest claimable runs by this index (RunOwnership::claimQueued),
-- rather than sorting every queued run at each claim.
CREATE INDEX run_claimable_chain ON run (chain_id, id) WHERE state = 'queued' AND owner_session IS NULL;

-- Attempts and output for every window on a shared store: a statement that writes attempts
-- notifies channel 'hourglass' with 'taskruns', one that writes log lines with 'logs'. A
-- window then reads what changed of the runs other engines execute, so their tasks' progress
-- and output show live, as its own engine's do. Fixed payloads, no transition tables: these
-- statements are the engines' hottest, and PostgreSQL sends one of each per transaction.
CREATE TRIGGER task_run_events AFTER INSERT OR UPDATE ON task_run
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_notify('taskruns');

CREATE TRIGGER log_line_events AFTER INSERT ON log_line
FOR EACH STATEMENT EXECUTE FUNCTION hourglass_notify('logs');

-- Run events row by row, and only for rows whose state changed: 009's statement trigger built
-- transition tables for every update of run (each claim, too), about a seventh of the
-- server's work under two busy engines. A window gathers the events that arrive together
-- and reads their runs at once (Engine::tellRunsFromElsewhere); past 500 it reads its lists
-- again, as 'runs *' asked it to before.
DROP TRIGGER run_events ON run;
DROP FUNCTION hourglass_run_events();
CREATE FUNCTION hourglass_run_event() RETURNS trigger LANGUAGE plpgsql AS
'BEGIN PERFORM pg_notify(''hourglass'', ''runs '' || NEW.id); RETURN NULL; END';
CREATE TRIGGER run_events AFTER UPDATE ON run FOR EACH ROW
WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION hourglass_run_event();
