-- Follows pg_timetable v5.13.0, internal/pgengine/sql/json_schema.sql (rewritten for Hourglass's tests).

-- pg_timetable ships a JSON Schema validator (after gavinwahl/postgres-json-schema) for users'
-- own SQL; nothing in its schema calls it. The checks below run in pg_timetable's order, and
-- where a keyword meets data of the wrong shape they fail (or pass) the way its version does.

CREATE OR REPLACE FUNCTION timetable._validate_json_schema_type(type TEXT, data JSONB)
RETURNS BOOLEAN AS $$
BEGIN
    IF type = 'integer' THEN
        IF jsonb_typeof(data) <> 'number' THEN
            RETURN FALSE;
        END IF;
        RETURN coalesce(trunc(data::TEXT::NUMERIC) = data::TEXT::NUMERIC, TRUE);
    END IF;
    RETURN coalesce(jsonb_typeof(data) = type, TRUE);
END;
$$ LANGUAGE plpgsql IMMUTABLE;

CREATE OR REPLACE FUNCTION timetable.validate_json_schema(
    schema JSONB,
    data JSONB,
    root_schema JSONB DEFAULT NULL
) RETURNS BOOLEAN AS $$
DECLARE
    data_kind TEXT := jsonb_typeof(data);
    key       TEXT;
    sub       JSONB;
    element   JSONB;
    ref_path  TEXT[];
    allowed   TEXT[];
    extra     TEXT[];
    regex     TEXT;
BEGIN
    root_schema := coalesce(root_schema, schema);

    IF schema ? 'type' THEN
        allowed := CASE WHEN jsonb_typeof(schema -> 'type') = 'array'
                        THEN ARRAY(SELECT jsonb_array_elements_text(schema -> 'type'))
                        ELSE ARRAY[schema ->> 'type'] END;
        IF NOT (SELECT bool_or(timetable._validate_json_schema_type(t, data))
                FROM unnest(allowed) AS t) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'properties' THEN
        FOR key IN SELECT jsonb_object_keys(schema -> 'properties') LOOP
            IF data ? key AND NOT timetable.validate_json_schema(
                    schema -> 'properties' -> key, data -> key, root_schema) THEN
                RETURN FALSE;
            END IF;
        END LOOP;
    END IF;

    IF schema ? 'required' AND data_kind = 'object' THEN
        IF NOT ARRAY(SELECT jsonb_object_keys(data))
                @> ARRAY(SELECT jsonb_array_elements_text(schema -> 'required')) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'items' AND data_kind = 'array' THEN
        IF jsonb_typeof(schema -> 'items') = 'object' THEN
            FOR element IN SELECT jsonb_array_elements(data) LOOP
                IF NOT timetable.validate_json_schema(schema -> 'items', element, root_schema) THEN
                    RETURN FALSE;
                END IF;
            END LOOP;
        -- a tuple: element n against items[n]; elements past the tuple pass here
        ELSIF NOT (SELECT bool_and(n > jsonb_array_length(schema -> 'items')
                                   OR timetable.validate_json_schema(
                                       schema -> 'items' -> (n::INT - 1), e, root_schema))
                   FROM jsonb_array_elements(data) WITH ORDINALITY AS a(e, n)) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF jsonb_typeof(schema -> 'additionalItems') = 'boolean'
            AND NOT (schema -> 'additionalItems')::TEXT::BOOLEAN
            AND jsonb_typeof(schema -> 'items') = 'array' THEN
        IF jsonb_array_length(data) > jsonb_array_length(schema -> 'items') THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF jsonb_typeof(schema -> 'additionalItems') = 'object' THEN
        IF NOT (SELECT bool_and(timetable.validate_json_schema(
                                    schema -> 'additionalItems', e, root_schema))
                FROM jsonb_array_elements(data) WITH ORDINALITY AS a(e, n)
                WHERE n > jsonb_array_length(schema -> 'items')) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'minimum' AND data_kind = 'number' THEN
        IF data::TEXT::NUMERIC < (schema ->> 'minimum')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'maximum' AND data_kind = 'number' THEN
        IF data::TEXT::NUMERIC > (schema ->> 'maximum')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    -- draft-4 booleans; they compare whatever data is, as pg_timetable's do
    IF coalesce((schema -> 'exclusiveMinimum')::TEXT::BOOLEAN, FALSE) THEN
        IF data::TEXT::NUMERIC = (schema ->> 'minimum')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF coalesce((schema -> 'exclusiveMaximum')::TEXT::BOOLEAN, FALSE) THEN
        IF data::TEXT::NUMERIC = (schema ->> 'maximum')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'anyOf' THEN
        IF NOT (SELECT bool_or(timetable.validate_json_schema(s, data, root_schema))
                FROM jsonb_array_elements(schema -> 'anyOf') AS s) THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'allOf' THEN
        IF NOT (SELECT bool_and(timetable.validate_json_schema(s, data, root_schema))
                FROM jsonb_array_elements(schema -> 'allOf') AS s) THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'oneOf' THEN
        IF (SELECT count(*) FROM jsonb_array_elements(schema -> 'oneOf') AS s
            WHERE timetable.validate_json_schema(s, data, root_schema)) <> 1 THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF coalesce((schema -> 'uniqueItems')::TEXT::BOOLEAN, FALSE) THEN
        IF (SELECT count(*) FROM jsonb_array_elements(data))
                <> (SELECT count(DISTINCT e) FROM jsonb_array_elements(data) AS e) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'additionalProperties' AND data_kind = 'object' THEN
        -- keys that neither properties nor patternProperties name
        extra := ARRAY(
            SELECT k FROM jsonb_object_keys(data) AS k
            WHERE k NOT IN (SELECT jsonb_object_keys(schema -> 'properties'))
              AND NOT EXISTS (SELECT FROM jsonb_object_keys(schema -> 'patternProperties') AS p
                              WHERE k ~ p));
        IF jsonb_typeof(schema -> 'additionalProperties') = 'boolean' THEN
            IF NOT (schema -> 'additionalProperties')::TEXT::BOOLEAN AND data_kind = 'object'
                    AND NOT extra <@ ARRAY(SELECT jsonb_object_keys(schema -> 'properties')) THEN
                RETURN FALSE;
            END IF;
        ELSIF NOT (SELECT bool_and(timetable.validate_json_schema(
                                       schema -> 'additionalProperties', data -> k, root_schema))
                   FROM unnest(extra) AS k) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? '$ref' THEN
        -- only references from the root ("#/a/b"); the first ~1 and ~0 of each step are
        -- unescaped (regexp_replace without 'g', as pg_timetable's version does)
        ref_path := ARRAY(
            SELECT regexp_replace(regexp_replace(part, '~1', '/'), '~0', '~')
            FROM unnest(regexp_split_to_array(schema ->> '$ref', '/')) AS part);
        IF NOT timetable.validate_json_schema(
                root_schema #> ref_path[2:array_length(ref_path, 1)], data, root_schema) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'enum' THEN
        IF NOT EXISTS (SELECT FROM jsonb_array_elements(schema -> 'enum') AS v WHERE v = data) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'minLength' AND data_kind = 'string' THEN
        IF char_length(data #>> '{}') < (schema ->> 'minLength')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'maxLength' AND data_kind = 'string' THEN
        IF char_length(data #>> '{}') > (schema ->> 'maxLength')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'not' THEN
        IF timetable.validate_json_schema(schema -> 'not', data, root_schema) THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'maxProperties' AND data_kind = 'object' THEN
        IF (SELECT count(*) FROM jsonb_object_keys(data))
                > (schema ->> 'maxProperties')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'minProperties' AND data_kind = 'object' THEN
        IF (SELECT count(*) FROM jsonb_object_keys(data))
                < (schema ->> 'minProperties')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'maxItems' AND data_kind = 'array' THEN
        IF (SELECT count(*) FROM jsonb_array_elements(data)) > (schema ->> 'maxItems')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;
    IF schema ? 'minItems' AND data_kind = 'array' THEN
        IF (SELECT count(*) FROM jsonb_array_elements(data)) < (schema ->> 'minItems')::NUMERIC THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'dependencies' THEN
        FOR key IN SELECT jsonb_object_keys(schema -> 'dependencies') LOOP
            CONTINUE WHEN NOT coalesce(data ? key, FALSE);
            sub := schema -> 'dependencies' -> key;
            IF jsonb_typeof(sub) = 'array' THEN
                IF NOT (SELECT bool_and(data ? d) FROM jsonb_array_elements_text(sub) AS d) THEN
                    RETURN FALSE;
                END IF;
            ELSIF NOT timetable.validate_json_schema(sub, data, root_schema) THEN
                RETURN FALSE;
            END IF;
        END LOOP;
    END IF;

    IF schema ? 'pattern' AND data_kind = 'string' THEN
        IF (data #>> '{}') !~ (schema ->> 'pattern') THEN
            RETURN FALSE;
        END IF;
    END IF;

    IF schema ? 'patternProperties' AND data_kind = 'object' THEN
        FOR key IN SELECT jsonb_object_keys(data) LOOP
            FOR regex IN SELECT jsonb_object_keys(schema -> 'patternProperties') LOOP
                -- pg_timetable's version reports every pair it tries (its "%s" prints an 's')
                RAISE NOTICE 'prop %s, pattern %, schema %',
                    key, regex, schema -> 'patternProperties' -> regex;
                IF key ~ regex AND NOT timetable.validate_json_schema(
                        schema -> 'patternProperties' -> regex, data -> key, root_schema) THEN
                    RETURN FALSE;
                END IF;
            END LOOP;
        END LOOP;
    END IF;

    IF schema ? 'multipleOf' AND data_kind = 'number' THEN
        IF data::TEXT::NUMERIC % (schema ->> 'multipleOf')::NUMERIC <> 0 THEN
            RETURN FALSE;
        END IF;
    END IF;

    RETURN TRUE;
END;
$$ LANGUAGE plpgsql IMMUTABLE;
