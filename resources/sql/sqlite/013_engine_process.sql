-- Hourglass schema, version 13.
-- Which process holds an engine session ("<boot id>/<start ticks>", empty when not known):
-- on SQLite, where every engine runs on the file's machine, a session whose very process
-- still lives is held, whatever the wall clocks say (a clock stepped forward made a live
-- engine's lease look run out, and a `run --wait` took its runs over).
ALTER TABLE engine_session ADD COLUMN process TEXT NOT NULL DEFAULT '';
