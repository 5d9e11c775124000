-- Hourglass schema, version 11.
-- Ready task runs spread over engines. An engine whose slots are all taken offers a task that
-- has waited for one (offered_at); any engine with a free slot claims it with
-- FOR UPDATE SKIP LOCKED and runs it (worker_session, worker_epoch: its claim, checked by
-- every write it makes about the attempt, as owner_session fences a run). The run's owner
-- still decides what is ready, retries and ends the run; it asks a worker to stop an attempt
-- through stop_request. An attempt whose worker is gone is interrupted by any engine's
-- recovery, and retried by the run's owner as its retries allow.
ALTER TABLE task_run ADD COLUMN offered_at BIGINT;
ALTER TABLE task_run ADD COLUMN worker_session BIGINT;
ALTER TABLE task_run ADD COLUMN worker_epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE task_run ADD COLUMN worker_name TEXT NOT NULL DEFAULT '';
ALTER TABLE task_run ADD COLUMN stop_request TEXT NOT NULL DEFAULT '';
-- What a free slot may claim; the attempts engines run for others (recovery, reconciling).
CREATE INDEX task_run_offered ON task_run(offered_at, id)
    WHERE state = 'queued' AND offered_at IS NOT NULL AND worker_session IS NULL;
CREATE INDEX task_run_worker ON task_run(worker_session) WHERE worker_session IS NOT NULL;

-- An offer wakes every engine at once: a free slot elsewhere takes it within the second.
CREATE TRIGGER task_run_offered_notify AFTER INSERT OR UPDATE ON task_run
FOR EACH ROW WHEN (NEW.state = 'queued' AND NEW.offered_at IS NOT NULL AND NEW.worker_session IS NULL)
EXECUTE FUNCTION hourglass_notify('offers');
