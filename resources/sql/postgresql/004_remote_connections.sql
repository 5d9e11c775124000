-- Remote schedulers (pg_timetable, DolphinScheduler, pgAgent) keep their data on a database
-- server of their own kind: DolphinScheduler on PostgreSQL or MySQL. '' means the kind itself
-- for the plain database kinds, and PostgreSQL for the others (profiles made before this).
ALTER TABLE connection_profile ADD COLUMN database_kind TEXT NOT NULL DEFAULT '';
