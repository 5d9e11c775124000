-- Follows pg_timetable v6.3.0, internal/pgengine/sql/cron.sql (rewritten for Hourglass's tests).

-- Expands the five fields of a cron line into sorted arrays of allowed values. Fields are
-- split on any whitespace; a sixth field and beyond are ignored, a missing one fails (FOREACH
-- over NULL). Day of week accepts 0..7 (0 and 7 both mean Sunday for is_cron_in_time).
CREATE OR REPLACE FUNCTION timetable.cron_split_to_arrays(
    cron TEXT,
    OUT mins INTEGER[],
    OUT hours INTEGER[],
    OUT days INTEGER[],
    OUT months INTEGER[],
    OUT dow INTEGER[]
) RETURNS RECORD AS $$
DECLARE
    field_names CONSTANT TEXT[] = '{"minutes", "hours", "days", "months", "days of week"}';
    bounds      CONSTANT INTEGER[][] = '{{0,59},{0,23},{1,31},{1,12},{0,7}}';
    fields      TEXT[];
    field_no    INTEGER;
    item        TEXT;
    step_parts  TEXT[];
    ends        INTEGER[];
    found_vals  INTEGER[];
    lowest      INTEGER;
    highest     INTEGER;
BEGIN
    fields := regexp_split_to_array(cron, '\s+');
    FOR field_no IN 1..5 LOOP
        found_vals := NULL;
        FOREACH item IN ARRAY string_to_array(fields[field_no], ',') LOOP
            IF item ~ '^[0-9]+$' THEN
                found_vals := found_vals || item::INTEGER;
            ELSIF item ~ '^[*]+$' THEN
                found_vals := found_vals
                    || ARRAY(SELECT generate_series(bounds[field_no][1], bounds[field_no][2]));
            ELSIF item ~ '^[0-9]+-[0-9]+$' THEN
                ends := regexp_split_to_array(item, '-');
                found_vals := found_vals || ARRAY(SELECT generate_series(ends[1], ends[2]));
            ELSIF item ~ '^[0-9]+/[0-9]+$' THEN
                -- "start/step": from start up to the field's maximum
                ends := regexp_split_to_array(item, '/');
                found_vals := found_vals
                    || ARRAY(SELECT generate_series(ends[1], bounds[field_no][2], ends[2]));
            ELSIF item ~ '^[0-9-]+/[0-9]+$' THEN
                -- "first-last/step"
                step_parts := regexp_split_to_array(item, '/');
                ends := regexp_split_to_array(step_parts[1], '-');
                found_vals := found_vals
                    || ARRAY(SELECT generate_series(ends[1], ends[2], step_parts[2]::INTEGER));
            ELSIF item ~ '^[*]+/[0-9]+$' THEN
                step_parts := regexp_split_to_array(item, '/');
                found_vals := found_vals
                    || ARRAY(SELECT generate_series(bounds[field_no][1], bounds[field_no][2],
                                                    step_parts[2]::INTEGER));
            ELSE
                -- pg_timetable's hint joins its string literals with '+', so this branch
                -- really ends in "operator is not unique: unknown + unknown" (42725) before
                -- its message is raised; kept so a refusal looks the same here.
                RAISE EXCEPTION 'Value ("%") not recognized', fields[field_no]
                    USING HINT = 'fields separated by space or tab.' +
                        'Values allowed: numbers (value list with ","), ' +
                        'any value with "*", range of value with "-" and step values with "/"!';
            END IF;
        END LOOP;
        SELECT array_agg(v ORDER BY v), min(v), max(v)
            INTO found_vals, lowest, highest
            FROM (SELECT DISTINCT unnest(found_vals) AS v) AS distinct_vals;
        -- The message names the field's last item, whichever item was out of range.
        IF found_vals IS NULL OR lowest < bounds[field_no][1] OR highest > bounds[field_no][2] THEN
            RAISE EXCEPTION '% is out of range % for %',
                item, bounds[field_no:field_no][:], field_names[field_no];
        END IF;
        IF field_no = 1 THEN
            mins := found_vals;
        ELSIF field_no = 2 THEN
            hours := found_vals;
        ELSIF field_no = 3 THEN
            days := found_vals;
        ELSIF field_no = 4 THEN
            months := found_vals;
        ELSE
            dow := found_vals;
        END IF;
    END LOOP;
END;
$$ LANGUAGE plpgsql STRICT;

-- First instants of the allowed months met within a year from from_ts (13 month steps, both
-- ends included, so from_ts's own month can come twice).
CREATE OR REPLACE FUNCTION timetable.cron_months(
    from_ts TIMESTAMPTZ,
    allowed_months INT[]
) RETURNS SETOF TIMESTAMPTZ AS $$
    SELECT date_trunc('month', step.ts)
    FROM pg_catalog.generate_series(from_ts, from_ts + INTERVAL '1 year', INTERVAL '1 month')
            AS step(ts)
        JOIN unnest(allowed_months) AS allowed(month)
            ON date_part('month', date_trunc('month', step.ts)) = allowed.month
$$ LANGUAGE sql STRICT;

-- Midnights of the allowed days within those months. Unlike is_cron_in_time this compares
-- only "dow" (0..6), so a 7 for Sunday matches no day here.
CREATE OR REPLACE FUNCTION timetable.cron_days(
    from_ts TIMESTAMPTZ,
    allowed_months INT[],
    allowed_days INT[],
    allowed_week_days INT[]
) RETURNS SETOF TIMESTAMPTZ AS $$
    SELECT day_start.ts
    FROM timetable.cron_months(from_ts, allowed_months) AS month_start(ts)
        CROSS JOIN LATERAL (
            SELECT date_trunc('day', d) AS ts
            FROM pg_catalog.generate_series(month_start.ts,
                                            month_start.ts + INTERVAL '1 month' - INTERVAL '1 day',
                                            INTERVAL '1 day') AS d
        ) AS day_start
        JOIN unnest(allowed_days) AS allowed(day) ON date_part('day', day_start.ts) = allowed.day
    WHERE extract(dow FROM day_start.ts) = ANY(allowed_week_days)
$$ LANGUAGE sql STRICT;

CREATE OR REPLACE FUNCTION timetable.cron_times(
    allowed_hours INT[],
    allowed_minutes INT[]
) RETURNS SETOF TIME AS $$
    SELECT make_time(h, m, 0)
    FROM unnest(allowed_hours) AS h CROSS JOIN unnest(allowed_minutes) AS m
$$ LANGUAGE sql STRICT;

-- Every instant after from_ts, within about a year, that the cron line names, earliest first.
CREATE OR REPLACE FUNCTION timetable.cron_runs(
    from_ts TIMESTAMP WITH TIME ZONE,
    cron TEXT
) RETURNS SETOF TIMESTAMPTZ AS $$
    SELECT d.ts + t.at
    FROM timetable.cron_split_to_arrays(cron) AS parts,
        timetable.cron_times(parts.hours, parts.mins) AS t(at)
        CROSS JOIN timetable.cron_days(from_ts, parts.months, parts.days, parts.dow) AS d(ts)
    WHERE d.ts + t.at > from_ts
    ORDER BY 1
$$ LANGUAGE sql STRICT;

-- '@reboot', '@every <interval>', '@after <interval>' (a bad interval is a cast error, not a
-- check violation), or five fields separated by spaces that cron_split_to_arrays accepts.
CREATE DOMAIN timetable.cron AS TEXT CHECK (
    VALUE = '@reboot'
    OR substr(VALUE, 1, 6) IN ('@every', '@after')
        AND (substr(VALUE, 7)::INTERVAL) IS NOT NULL
    OR VALUE ~ '^((\d+(,\d+)+|\d+[/-]\d+|\*[/-]\d+|\d+|\*) +){4}(\d+(,\d+)+|\d+[/-]\d+|\*[/-]\d+|\d+|\*) ?$'
        AND timetable.cron_split_to_arrays(VALUE) IS NOT NULL
);

COMMENT ON DOMAIN timetable.cron IS
    'Cron line (five fields) or @reboot, @every <interval>, @after <interval>';

-- TRUE when ts (in the session's time zone) falls on a minute the cron line names; TRUE for
-- NULL; an @-line fails in cron_split_to_arrays (the worker never asks about those). Day of
-- week matches either numbering, 0..6 or ISO 1..7.
CREATE OR REPLACE FUNCTION timetable.is_cron_in_time(
    run_at timetable.cron,
    ts TIMESTAMPTZ
) RETURNS BOOLEAN AS $$
    SELECT CASE
        WHEN run_at IS NULL THEN TRUE
        ELSE date_part('month', ts) = ANY(parts.months)
            AND (date_part('dow', ts) = ANY(parts.dow) OR date_part('isodow', ts) = ANY(parts.dow))
            AND date_part('day', ts) = ANY(parts.days)
            AND date_part('hour', ts) = ANY(parts.hours)
            AND date_part('minute', ts) = ANY(parts.mins)
        END
    FROM timetable.cron_split_to_arrays(run_at) AS parts
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.next_run(cron timetable.cron) RETURNS TIMESTAMPTZ AS $$
    SELECT r FROM timetable.cron_runs(now(), cron) AS r LIMIT 1
$$ LANGUAGE sql STRICT;
