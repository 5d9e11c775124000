-- Hourglass schema, version 6.
-- Each schedule chooses what a DST change does to it (DstPolicy's text form): in a gap,
-- run after it or skip; in an overlap, fixed times once or both; or cronie's rule.
-- Calendars: named sets of days (days of the week, date ranges, an iCalendar file's events
-- kept as ranges) that a schedule excludes or keeps to. A calendar is not edited in place
-- (it is added whole and removed when no schedule uses it), so only a schedule's choice of
-- calendar is a definition change.
-- A change of it is a definition change: the schedule_updated trigger lists it.

ALTER TABLE schedule ADD COLUMN dst TEXT NOT NULL DEFAULT 'run-after,once';

CREATE TABLE calendar (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE,
    description TEXT    NOT NULL DEFAULT '',
    weekdays    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE TABLE calendar_range (
    calendar_id INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
    first_day   TEXT    NOT NULL,
    last_day    TEXT    NOT NULL,
    summary     TEXT    NOT NULL DEFAULT '',
    CHECK (first_day <= last_day)
);
CREATE INDEX calendar_range_calendar ON calendar_range(calendar_id);
ALTER TABLE schedule ADD COLUMN calendar_id INTEGER REFERENCES calendar(id);
ALTER TABLE schedule ADD COLUMN calendar_mode TEXT NOT NULL DEFAULT 'exclude' CHECK (calendar_mode IN ('exclude', 'only'));
CREATE INDEX schedule_calendar ON schedule(calendar_id);

DROP TRIGGER schedule_updated;
CREATE TRIGGER schedule_updated AFTER UPDATE OF chain_id, kind, expression, dialect, time_zone, misfire, misfire_window_s, active_from, active_until, enabled, dst, calendar_id, calendar_mode ON schedule
WHEN NEW.chain_id IS NOT OLD.chain_id OR NEW.kind IS NOT OLD.kind OR NEW.expression IS NOT OLD.expression OR NEW.dialect IS NOT OLD.dialect OR NEW.time_zone IS NOT OLD.time_zone OR NEW.misfire IS NOT OLD.misfire OR NEW.misfire_window_s IS NOT OLD.misfire_window_s OR NEW.active_from IS NOT OLD.active_from OR NEW.active_until IS NOT OLD.active_until OR NEW.enabled IS NOT OLD.enabled OR NEW.dst IS NOT OLD.dst OR NEW.calendar_id IS NOT OLD.calendar_id OR NEW.calendar_mode IS NOT OLD.calendar_mode BEGIN
    UPDATE definition_revision SET revision = revision + 1 WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, NEW.chain_id, 'schedule', NEW.id FROM definition_revision WHERE id = 1;
    INSERT INTO definition_change (revision, chain_id, kind, item_id)
    SELECT revision, OLD.chain_id, 'schedule', OLD.id FROM definition_revision WHERE id = 1 AND OLD.chain_id <> NEW.chain_id;
END;
