-- Hourglass schema, version 2: runs of one backfill form a batch that the engine admits in
-- id order, at most batch_parallel at a time (0: not limited).

ALTER TABLE run ADD COLUMN batch_id BIGINT REFERENCES run(id) ON DELETE SET NULL;
ALTER TABLE run ADD COLUMN batch_parallel INTEGER NOT NULL DEFAULT 0;
CREATE INDEX run_batch ON run(batch_id);
