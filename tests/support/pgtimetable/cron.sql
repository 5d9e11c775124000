-- pg_timetable's cron.sql (v5.13.0 = v6.3.0): the timetable.cron domain and the functions that
-- read it, rewritten for Hourglass's tests with the same names, signatures and results.

-- A five-field cron text as five sorted arrays of allowed values. Each comma-separated item is
-- a number, '*', a range a-b, a step a/b (from a to the field's end), a stepped range a-b/c or
-- '*/c'; anything else, or a value outside the field, raises an exception.
CREATE OR REPLACE FUNCTION timetable.cron_split_to_arrays(
    cron text,
    OUT mins integer[],
    OUT hours integer[],
    OUT days integer[],
    OUT months integer[],
    OUT dow integer[]
) RETURNS record AS $$
DECLARE
    fields    text[] := regexp_split_to_array(cron, '\s+');
    names     constant text[] := '{"minutes", "hours", "days", "months", "days of week"}';
    lows      constant integer[] := '{0, 0, 1, 1, 0}';
    highs     constant integer[] := '{59, 23, 31, 12, 7}';
    field_no  integer;
    item      text;
    parts     text[];
    bounds    text[];
    collected integer[];
    lowest    integer;
    highest   integer;
BEGIN
    FOR field_no IN 1..5 LOOP
        collected := NULL;
        FOREACH item IN ARRAY string_to_array(fields[field_no], ',') LOOP
            IF item ~ '^[0-9]+$' THEN
                collected := collected || item::integer;
            ELSIF item ~ '^[*]+$' THEN
                collected := collected
                    || array(SELECT generate_series(lows[field_no], highs[field_no]));
            ELSIF item ~ '^[0-9]+[-][0-9]+$' THEN
                bounds := regexp_split_to_array(item, '-');
                collected := collected
                    || array(SELECT generate_series(bounds[1]::integer, bounds[2]::integer));
            ELSIF item ~ '^[0-9]+[\/][0-9]+$' THEN
                parts := regexp_split_to_array(item, '/');
                collected := collected || array(SELECT generate_series(
                    parts[1]::integer, highs[field_no], parts[2]::integer));
            ELSIF item ~ '^[0-9-]+[\/][0-9]+$' THEN
                parts := regexp_split_to_array(item, '/');
                bounds := regexp_split_to_array(parts[1], '-');
                collected := collected || array(SELECT generate_series(
                    bounds[1]::integer, bounds[2]::integer, parts[2]::integer));
            ELSIF item ~ '^[*]+[\/][0-9]+$' THEN
                parts := regexp_split_to_array(item, '/');
                collected := collected || array(SELECT generate_series(
                    lows[field_no], highs[field_no], parts[2]::integer));
            ELSE
                RAISE EXCEPTION 'Value ("%") not recognized', fields[field_no]
                    USING HINT = 'fields separated by space or tab. Values allowed: numbers '
                        '(value list with ","), any value with "*", range of value with "-" '
                        'and step values with "/"!';
            END IF;
        END LOOP;
        SELECT array_agg(v ORDER BY v), min(v), max(v) INTO collected, lowest, highest
          FROM (SELECT DISTINCT unnest(collected) AS v) AS distinct_values;
        IF collected IS NULL OR lowest < lows[field_no] OR highest > highs[field_no] THEN
            RAISE EXCEPTION '% is out of range [%:%] for %',
                item, lows[field_no], highs[field_no], names[field_no];
        END IF;
        CASE field_no
            WHEN 1 THEN mins := collected;
            WHEN 2 THEN hours := collected;
            WHEN 3 THEN days := collected;
            WHEN 4 THEN months := collected;
            ELSE dow := collected;
        END CASE;
    END LOOP;
END;
$$ LANGUAGE plpgsql STRICT;

-- The first instants of the allowed months within a year from from_ts.
CREATE OR REPLACE FUNCTION timetable.cron_months(
    from_ts timestamptz,
    allowed_months int[]
) RETURNS SETOF timestamptz AS $$
    SELECT date_trunc('month', m)
      FROM generate_series(from_ts, from_ts + interval '1 year', interval '1 month') AS m
     WHERE date_part('month', m) = ANY (allowed_months)
$$ LANGUAGE sql STRICT;

-- The days of those months that match both the day of month and the day of week (both must
-- match, as pg_timetable has it — unlike Vixie cron's either-or).
CREATE OR REPLACE FUNCTION timetable.cron_days(
    from_ts timestamptz,
    allowed_months int[],
    allowed_days int[],
    allowed_week_days int[]
) RETURNS SETOF timestamptz AS $$
    SELECT date_trunc('day', d)
      FROM timetable.cron_months(from_ts, allowed_months) AS month_start,
           generate_series(month_start, month_start + interval '1 month' - interval '1 day',
                           interval '1 day') AS d
     WHERE date_part('day', d) = ANY (allowed_days)
       AND extract(dow FROM d) = ANY (allowed_week_days)
$$ LANGUAGE sql STRICT;

CREATE OR REPLACE FUNCTION timetable.cron_times(
    allowed_hours int[],
    allowed_minutes int[]
) RETURNS SETOF time AS $$
    SELECT make_time(h, m, 0) FROM unnest(allowed_hours) AS h, unnest(allowed_minutes) AS m
$$ LANGUAGE sql STRICT;

-- Fire times after from_ts, in order.
CREATE OR REPLACE FUNCTION timetable.cron_runs(
    from_ts timestamp with time zone,
    cron text
) RETURNS SETOF timestamptz AS $$
    SELECT day_start + at_time
      FROM timetable.cron_split_to_arrays(cron) AS a,
           timetable.cron_times(a.hours, a.mins) AS at_time,
           timetable.cron_days(from_ts, a.months, a.days, a.dow) AS day_start
     WHERE day_start + at_time > from_ts
     ORDER BY 1
$$ LANGUAGE sql STRICT;

-- @reboot, @every/@after with an interval, or five cron fields of numbers, lists, ranges and
-- steps (the regular expression) that also split into valid arrays.
CREATE DOMAIN timetable.cron AS TEXT CHECK (
    VALUE = '@reboot'
    OR substr(VALUE, 1, 6) IN ('@every', '@after')
       AND (substr(VALUE, 7)::interval) IS NOT NULL
    OR VALUE ~ '^(((\d+,)+\d+|(\d+(\/|-)\d+)|(\*(\/|-)\d+)|\d+|\*) +){4}(((\d+,)+\d+|(\d+(\/|-)\d+)|(\*(\/|-)\d+)|\d+|\*) ?)$'
       AND timetable.cron_split_to_arrays(VALUE) IS NOT NULL
);

-- Whether ts is one of run_at's minutes; NULL run_at means always. Day of week matches as
-- 0-6 (Sunday 0) or ISO 1-7 (Sunday 7).
CREATE OR REPLACE FUNCTION timetable.is_cron_in_time(
    run_at timetable.cron,
    ts timestamptz
) RETURNS BOOLEAN AS $$
    SELECT CASE WHEN run_at IS NULL THEN TRUE ELSE
               date_part('month', ts) = ANY (a.months)
               AND (date_part('dow', ts) = ANY (a.dow) OR date_part('isodow', ts) = ANY (a.dow))
               AND date_part('day', ts) = ANY (a.days)
               AND date_part('hour', ts) = ANY (a.hours)
               AND date_part('minute', ts) = ANY (a.mins)
           END
      FROM timetable.cron_split_to_arrays(run_at) AS a
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION timetable.next_run(cron timetable.cron) RETURNS timestamptz AS $$
    SELECT * FROM timetable.cron_runs(now(), cron) LIMIT 1
$$ LANGUAGE sql STRICT;
