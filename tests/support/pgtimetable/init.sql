-- pg_timetable's init.sql and ddl.sql, first part (the schema and its migration table) (v5.13.0 and v6.3.0 agree on
-- everything here; 6.x adds execution_log.params in v6.sql). Written for Hourglass's tests
-- from the published definitions: same tables, columns, types, defaults and constraints.
CREATE SCHEMA timetable;

CREATE TABLE timetable.migration (
    id      INT8 NOT NULL,
    version TEXT NOT NULL,
    PRIMARY KEY (id)
);
