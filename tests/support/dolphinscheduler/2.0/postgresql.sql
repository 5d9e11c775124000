-- Apache DolphinScheduler 2.0.x metadata schema, PostgreSQL dialect, for Hourglass's tests.
--
-- Written for Hourglass from DolphinScheduler tag 2.0.9, file
-- dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_postgresql.sql (commit 23302054).
-- It holds only the tables Hourglass reads and writes, with the same column names, types,
-- nullability, defaults, primary keys, unique constraints and indexes (names included), the id
-- sequences DolphinScheduler uses, and the default rows that file inserts into these tables.
-- Nothing is dropped first: load it into an empty database (psql -v ON_ERROR_STOP=1).
--
-- These are the tables of the 3.2 file less t_ds_trigger_relation, which 2.0.9 does not have.
-- It inserts no tenant: the 'default' tenant -1 came in 3.x.
--
-- Ids, as 2.0.9 makes them: most tables declare id serial, which creates a sequence
-- t_ds_<table>_id_seq owned by the column, and the file then sets the default to a plain
-- sequence t_ds_<table>_id_sequence (not owned by the column); both sequences exist, only the
-- second is used, and pg_get_serial_sequence() names the first. The three _log tables,
-- t_ds_version, t_ds_alertgroup and t_ds_worker_group declare a plain int/bigint id and get
-- only the _id_sequence. t_ds_error_command and the two environment tables keep serial.

CREATE SEQUENCE t_ds_version_id_sequence;
CREATE SEQUENCE t_ds_user_id_sequence;
CREATE SEQUENCE t_ds_tenant_id_sequence;
CREATE SEQUENCE t_ds_project_id_sequence;
CREATE SEQUENCE t_ds_process_definition_id_sequence;
CREATE SEQUENCE t_ds_process_definition_log_id_sequence;
CREATE SEQUENCE t_ds_task_definition_id_sequence;
CREATE SEQUENCE t_ds_task_definition_log_id_sequence;
CREATE SEQUENCE t_ds_process_task_relation_id_sequence;
CREATE SEQUENCE t_ds_process_task_relation_log_id_sequence;
CREATE SEQUENCE t_ds_process_instance_id_sequence;
CREATE SEQUENCE t_ds_task_instance_id_sequence;
CREATE SEQUENCE t_ds_schedules_id_sequence;
CREATE SEQUENCE t_ds_command_id_sequence;
CREATE SEQUENCE t_ds_worker_group_id_sequence;
CREATE SEQUENCE t_ds_alertgroup_id_sequence;
CREATE SEQUENCE t_ds_relation_project_user_id_sequence;

-- Schema version. The 2.0.9 file records '2.0.9' here.
CREATE TABLE t_ds_version (
  id      int          NOT NULL,
  version varchar(200) NOT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX version_index ON t_ds_version (version);
ALTER TABLE t_ds_version ALTER COLUMN id SET DEFAULT nextval('t_ds_version_id_sequence');

INSERT INTO t_ds_version (version) VALUES ('2.0.9');

-- Users; the installer creates 'admin' (password dolphinscheduler123, stored as an MD5 hex),
-- with tenant_id 0 (there is no such tenant). No unique key on user_name (as in 3.2), and no
-- time_zone column yet.
CREATE TABLE t_ds_user (
  id            serial      NOT NULL,
  user_name     varchar(64) DEFAULT NULL,
  user_password varchar(64) DEFAULT NULL,
  user_type     int         DEFAULT NULL,
  email         varchar(64) DEFAULT NULL,
  phone         varchar(11) DEFAULT NULL,
  tenant_id     int         DEFAULT NULL,
  create_time   timestamp   DEFAULT NULL,
  update_time   timestamp   DEFAULT NULL,
  queue         varchar(64) DEFAULT NULL,
  state         int         DEFAULT 1,
  PRIMARY KEY (id)
);
ALTER TABLE t_ds_user ALTER COLUMN id SET DEFAULT nextval('t_ds_user_id_sequence');

INSERT INTO t_ds_user (user_name, user_password, user_type, email, phone, tenant_id, state,
                       create_time, update_time)
VALUES ('admin', '7ad2410b2f4c074479a8937a28a22b8f', 0, 'xxx@qq.com', '', 0, 1,
        '2018-03-27 15:48:50', '2018-10-24 17:40:22');

-- Tenants; 2.0.9 has no unique index on tenant_code and creates no tenant.
CREATE TABLE t_ds_tenant (
  id          serial       NOT NULL,
  tenant_code varchar(64)  DEFAULT NULL,
  description varchar(255) DEFAULT NULL,
  queue_id    int          DEFAULT NULL,
  create_time timestamp    DEFAULT NULL,
  update_time timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
ALTER TABLE t_ds_tenant ALTER COLUMN id SET DEFAULT nextval('t_ds_tenant_id_sequence');

-- Projects; no unique index on name or code in 2.0.9.
CREATE TABLE t_ds_project (
  id          serial       NOT NULL,
  name        varchar(100) DEFAULT NULL,
  code        bigint       NOT NULL,
  description varchar(200) DEFAULT NULL,
  user_id     int          DEFAULT NULL,
  flag        int          DEFAULT 1,
  create_time timestamp    DEFAULT CURRENT_TIMESTAMP,
  update_time timestamp    DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id)
);
CREATE INDEX user_id_index ON t_ds_project (user_id);
ALTER TABLE t_ds_project ALTER COLUMN id SET DEFAULT nextval('t_ds_project_id_sequence');

-- Workflow definitions (current version) and their version history. In 2.0.9 a definition
-- carries its tenant (tenant_id), and version has no default.
CREATE TABLE t_ds_process_definition (
  id               serial       NOT NULL,
  code             bigint       NOT NULL,
  name             varchar(255) DEFAULT NULL,
  version          int          NOT NULL,
  description      text,
  project_code     bigint       DEFAULT NULL,
  release_state    int          DEFAULT NULL,
  user_id          int          DEFAULT NULL,
  global_params    text,
  locations        text,
  warning_group_id int          DEFAULT NULL,
  flag             int          DEFAULT NULL,
  timeout          int          DEFAULT 0,
  tenant_id        int          DEFAULT -1,
  execution_type   int          DEFAULT 0,
  create_time      timestamp    DEFAULT NULL,
  update_time      timestamp    DEFAULT NULL,
  PRIMARY KEY (id),
  CONSTRAINT process_definition_unique UNIQUE (name, project_code)
);
CREATE INDEX process_definition_index ON t_ds_process_definition (code, id);
ALTER TABLE t_ds_process_definition ALTER COLUMN id SET DEFAULT nextval('t_ds_process_definition_id_sequence');

-- No unique index on (code, version) in 2.0.9.
CREATE TABLE t_ds_process_definition_log (
  id               int          NOT NULL,
  code             bigint       NOT NULL,
  name             varchar(255) DEFAULT NULL,
  version          int          NOT NULL,
  description      text,
  project_code     bigint       DEFAULT NULL,
  release_state    int          DEFAULT NULL,
  user_id          int          DEFAULT NULL,
  global_params    text,
  locations        text,
  warning_group_id int          DEFAULT NULL,
  flag             int          DEFAULT NULL,
  timeout          int          DEFAULT 0,
  tenant_id        int          DEFAULT -1,
  execution_type   int          DEFAULT 0,
  operator         int          DEFAULT NULL,
  operate_time     timestamp    DEFAULT NULL,
  create_time      timestamp    DEFAULT NULL,
  update_time      timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
ALTER TABLE t_ds_process_definition_log ALTER COLUMN id SET DEFAULT nextval('t_ds_process_definition_log_id_sequence');

-- Task definitions (current version) and their version history.
CREATE TABLE t_ds_task_definition (
  id                      serial       NOT NULL,
  code                    bigint       NOT NULL,
  name                    varchar(255) DEFAULT NULL,
  version                 int          NOT NULL,
  description             text,
  project_code            bigint       DEFAULT NULL,
  user_id                 int          DEFAULT NULL,
  task_type               varchar(50)  DEFAULT NULL,
  task_params             text,
  flag                    int          DEFAULT NULL,
  task_priority           int          DEFAULT NULL,
  worker_group            varchar(255) DEFAULT NULL,
  environment_code        bigint       DEFAULT '-1',
  fail_retry_times        int          DEFAULT NULL,
  fail_retry_interval     int          DEFAULT NULL,
  timeout_flag            int          DEFAULT NULL,
  timeout_notify_strategy int          DEFAULT NULL,
  timeout                 int          DEFAULT 0,
  delay_time              int          DEFAULT 0,
  resource_ids            text,
  create_time             timestamp    DEFAULT NULL,
  update_time             timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX task_definition_index ON t_ds_task_definition (code, id);
ALTER TABLE t_ds_task_definition ALTER COLUMN id SET DEFAULT nextval('t_ds_task_definition_id_sequence');

CREATE TABLE t_ds_task_definition_log (
  id                      int          NOT NULL,
  code                    bigint       NOT NULL,
  name                    varchar(255) DEFAULT NULL,
  version                 int          NOT NULL,
  description             text,
  project_code            bigint       DEFAULT NULL,
  user_id                 int          DEFAULT NULL,
  task_type               varchar(50)  DEFAULT NULL,
  task_params             text,
  flag                    int          DEFAULT NULL,
  task_priority           int          DEFAULT NULL,
  worker_group            varchar(255) DEFAULT NULL,
  environment_code        bigint       DEFAULT '-1',
  fail_retry_times        int          DEFAULT NULL,
  fail_retry_interval     int          DEFAULT NULL,
  timeout_flag            int          DEFAULT NULL,
  timeout_notify_strategy int          DEFAULT NULL,
  timeout                 int          DEFAULT 0,
  delay_time              int          DEFAULT 0,
  resource_ids            text,
  operator                int          DEFAULT NULL,
  operate_time            timestamp    DEFAULT NULL,
  create_time             timestamp    DEFAULT NULL,
  update_time             timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX idx_code_version ON t_ds_task_definition_log (code, version);
CREATE INDEX idx_task_definition_log_project_code ON t_ds_task_definition_log (project_code);
ALTER TABLE t_ds_task_definition_log ALTER COLUMN id SET DEFAULT nextval('t_ds_task_definition_log_id_sequence');

-- Edges of a workflow's DAG (pre_task_code 0 marks a root task), current and history.
CREATE TABLE t_ds_process_task_relation (
  id                         serial       NOT NULL,
  name                       varchar(255) DEFAULT NULL,
  project_code               bigint       DEFAULT NULL,
  process_definition_code    bigint       DEFAULT NULL,
  process_definition_version int          DEFAULT NULL,
  pre_task_code              bigint       DEFAULT NULL,
  pre_task_version           int          DEFAULT 0,
  post_task_code             bigint       DEFAULT NULL,
  post_task_version          int          DEFAULT 0,
  condition_type             int          DEFAULT NULL,
  condition_params           text,
  create_time                timestamp    DEFAULT NULL,
  update_time                timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX idx_code ON t_ds_process_task_relation (project_code, process_definition_code);
ALTER TABLE t_ds_process_task_relation ALTER COLUMN id SET DEFAULT nextval('t_ds_process_task_relation_id_sequence');

CREATE TABLE t_ds_process_task_relation_log (
  id                         int          NOT NULL,
  name                       varchar(255) DEFAULT NULL,
  project_code               bigint       DEFAULT NULL,
  process_definition_code    bigint       DEFAULT NULL,
  process_definition_version int          DEFAULT NULL,
  pre_task_code              bigint       DEFAULT NULL,
  pre_task_version           int          DEFAULT 0,
  post_task_code             bigint       DEFAULT NULL,
  post_task_version          int          DEFAULT 0,
  condition_type             int          DEFAULT NULL,
  condition_params           text,
  operator                   int          DEFAULT NULL,
  operate_time               timestamp    DEFAULT NULL,
  create_time                timestamp    DEFAULT NULL,
  update_time                timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX idx_process_code_version
  ON t_ds_process_task_relation_log (process_definition_code, process_definition_version);
ALTER TABLE t_ds_process_task_relation_log ALTER COLUMN id SET DEFAULT nextval('t_ds_process_task_relation_log_id_sequence');

-- Workflow runs. process_instance_json and dependence_schedule_times exist only in this
-- dialect (the MySQL schema has no such columns). In 2.0.9 a run records tenant_id (not
-- tenant_code), and has no project_code, state_history, executor_name or test_flag.
CREATE TABLE t_ds_process_instance (
  id                         serial       NOT NULL,
  name                       varchar(255) DEFAULT NULL,
  process_definition_code    bigint       DEFAULT NULL,
  process_definition_version int          DEFAULT NULL,
  state                      int          DEFAULT NULL,
  recovery                   int          DEFAULT NULL,
  start_time                 timestamp    DEFAULT NULL,
  end_time                   timestamp    DEFAULT NULL,
  run_times                  int          DEFAULT NULL,
  host                       varchar(135) DEFAULT NULL,
  command_type               int          DEFAULT NULL,
  command_param              text,
  task_depend_type           int          DEFAULT NULL,
  max_try_times              int          DEFAULT 0,
  failure_strategy           int          DEFAULT 0,
  warning_type               int          DEFAULT 0,
  warning_group_id           int          DEFAULT NULL,
  schedule_time              timestamp    DEFAULT NULL,
  command_start_time         timestamp    DEFAULT NULL,
  global_params              text,
  process_instance_json      text,
  flag                       int          DEFAULT 1,
  update_time                timestamp    NULL,
  is_sub_process             int          DEFAULT 0,
  executor_id                int          NOT NULL,
  history_cmd                text,
  dependence_schedule_times  text,
  process_instance_priority  int          DEFAULT NULL,
  worker_group               varchar(64),
  environment_code           bigint       DEFAULT '-1',
  timeout                    int          DEFAULT 0,
  tenant_id                  int          NOT NULL DEFAULT -1,
  var_pool                   text,
  dry_run                    int          DEFAULT 0,
  next_process_instance_id   int          DEFAULT 0,
  restart_time               timestamp    DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX process_instance_index ON t_ds_process_instance (process_definition_code, id);
CREATE INDEX start_time_index ON t_ds_process_instance (start_time, end_time);
ALTER TABLE t_ds_process_instance ALTER COLUMN id SET DEFAULT nextval('t_ds_process_instance_id_sequence');

-- Task runs. Unlike the MySQL variant, no foreign key to t_ds_process_instance and no index
-- on process_instance_id.
CREATE TABLE t_ds_task_instance (
  id                      serial       NOT NULL,
  name                    varchar(255) DEFAULT NULL,
  task_type               varchar(50)  DEFAULT NULL,
  task_code               bigint       NOT NULL,
  task_definition_version int          DEFAULT NULL,
  process_instance_id     int          DEFAULT NULL,
  state                   int          DEFAULT NULL,
  submit_time             timestamp    DEFAULT NULL,
  start_time              timestamp    DEFAULT NULL,
  end_time                timestamp    DEFAULT NULL,
  host                    varchar(135) DEFAULT NULL,
  execute_path            varchar(200) DEFAULT NULL,
  log_path                varchar(200) DEFAULT NULL,
  alert_flag              int          DEFAULT NULL,
  retry_times             int          DEFAULT 0,
  pid                     int          DEFAULT NULL,
  app_link                text,
  task_params             text,
  flag                    int          DEFAULT 1,
  retry_interval          int          DEFAULT NULL,
  max_retry_times         int          DEFAULT NULL,
  task_instance_priority  int          DEFAULT NULL,
  worker_group            varchar(64),
  environment_code        bigint       DEFAULT '-1',
  environment_config      text,
  executor_id             int          DEFAULT NULL,
  first_submit_time       timestamp    DEFAULT NULL,
  delay_time              int          DEFAULT 0,
  var_pool                text,
  dry_run                 int          DEFAULT 0,
  PRIMARY KEY (id)
);
CREATE INDEX idx_task_instance_code_version ON t_ds_task_instance (task_code, task_definition_version);
ALTER TABLE t_ds_task_instance ALTER COLUMN id SET DEFAULT nextval('t_ds_task_instance_id_sequence');

-- Cron schedules, one per workflow definition in practice (not enforced by a key in 2.0).
CREATE TABLE t_ds_schedules (
  id                        serial       NOT NULL,
  process_definition_code   bigint       NOT NULL,
  start_time                timestamp    NOT NULL,
  end_time                  timestamp    NOT NULL,
  timezone_id               varchar(40)  DEFAULT NULL,
  crontab                   varchar(255) NOT NULL,
  failure_strategy          int          NOT NULL,
  user_id                   int          NOT NULL,
  release_state             int          NOT NULL,
  warning_type              int          NOT NULL,
  warning_group_id          int          DEFAULT NULL,
  process_instance_priority int          DEFAULT NULL,
  worker_group              varchar(64),
  environment_code          bigint       DEFAULT '-1',
  create_time               timestamp    NOT NULL,
  update_time               timestamp    NOT NULL,
  PRIMARY KEY (id)
);
ALTER TABLE t_ds_schedules ALTER COLUMN id SET DEFAULT nextval('t_ds_schedules_id_sequence');

-- Queue the master polls for work (start, rerun, pause, stop, ...).
CREATE TABLE t_ds_command (
  id                         serial      NOT NULL,
  command_type               int         DEFAULT NULL,
  process_definition_code    bigint      NOT NULL,
  command_param              text,
  task_depend_type           int         DEFAULT NULL,
  failure_strategy           int         DEFAULT 0,
  warning_type               int         DEFAULT 0,
  warning_group_id           int         DEFAULT NULL,
  schedule_time              timestamp   DEFAULT NULL,
  start_time                 timestamp   DEFAULT NULL,
  executor_id                int         DEFAULT NULL,
  update_time                timestamp   DEFAULT NULL,
  process_instance_priority  int         DEFAULT NULL,
  worker_group               varchar(64),
  environment_code           bigint      DEFAULT '-1',
  dry_run                    int         DEFAULT 0,
  process_instance_id        int         DEFAULT 0,
  process_definition_version int         DEFAULT 0,
  PRIMARY KEY (id)
);
CREATE INDEX priority_id_index ON t_ds_command (process_instance_priority, id);
ALTER TABLE t_ds_command ALTER COLUMN id SET DEFAULT nextval('t_ds_command_id_sequence');

-- Commands the master could not handle; DolphinScheduler copies the id from t_ds_command,
-- but in 2.0.9 this id is still a serial (default nextval of t_ds_error_command_id_seq).
CREATE TABLE t_ds_error_command (
  id                         serial      NOT NULL,
  command_type               int         DEFAULT NULL,
  process_definition_code    bigint      NOT NULL,
  command_param              text,
  task_depend_type           int         DEFAULT NULL,
  failure_strategy           int         DEFAULT 0,
  warning_type               int         DEFAULT 0,
  warning_group_id           int         DEFAULT NULL,
  schedule_time              timestamp   DEFAULT NULL,
  start_time                 timestamp   DEFAULT NULL,
  executor_id                int         DEFAULT NULL,
  update_time                timestamp   DEFAULT NULL,
  process_instance_priority  int         DEFAULT NULL,
  worker_group               varchar(64),
  environment_code           bigint      DEFAULT '-1',
  dry_run                    int         DEFAULT 0,
  message                    text,
  process_instance_id        int         DEFAULT 0,
  process_definition_version int         DEFAULT 0,
  PRIMARY KEY (id)
);

CREATE TABLE t_ds_environment (
  id          serial       NOT NULL,
  code        bigint       NOT NULL,
  name        varchar(100) DEFAULT NULL,
  config      text         DEFAULT NULL,
  description text,
  operator    int          DEFAULT NULL,
  create_time timestamp    DEFAULT NULL,
  update_time timestamp    DEFAULT NULL,
  PRIMARY KEY (id),
  CONSTRAINT environment_name_unique UNIQUE (name),
  CONSTRAINT environment_code_unique UNIQUE (code)
);

CREATE TABLE t_ds_environment_worker_group_relation (
  id               serial       NOT NULL,
  environment_code bigint       NOT NULL,
  worker_group     varchar(255) NOT NULL,
  operator         int          DEFAULT NULL,
  create_time      timestamp    DEFAULT NULL,
  update_time      timestamp    DEFAULT NULL,
  PRIMARY KEY (id),
  CONSTRAINT environment_worker_group_unique UNIQUE (environment_code, worker_group)
);

-- Worker groups created in the UI; the implicit 'default' group has no row.
CREATE TABLE t_ds_worker_group (
  id          bigint       NOT NULL,
  name        varchar(255) NOT NULL,
  addr_list   text         DEFAULT NULL,
  create_time timestamp    DEFAULT NULL,
  update_time timestamp    DEFAULT NULL,
  PRIMARY KEY (id),
  CONSTRAINT name_unique UNIQUE (name)
);
ALTER TABLE t_ds_worker_group ALTER COLUMN id SET DEFAULT nextval('t_ds_worker_group_id_sequence');

-- Alert groups; the 2.0.9 file creates one (id 1), naming alert instances 1 and 2, which it
-- does not create.
CREATE TABLE t_ds_alertgroup (
  id                 int          NOT NULL,
  alert_instance_ids varchar(255) DEFAULT NULL,
  create_user_id     int4         DEFAULT NULL,
  group_name         varchar(255) DEFAULT NULL,
  description        varchar(255) DEFAULT NULL,
  create_time        timestamp    DEFAULT NULL,
  update_time        timestamp    DEFAULT NULL,
  PRIMARY KEY (id),
  CONSTRAINT t_ds_alertgroup_name_un UNIQUE (group_name)
);
ALTER TABLE t_ds_alertgroup ALTER COLUMN id SET DEFAULT nextval('t_ds_alertgroup_id_sequence');

INSERT INTO t_ds_alertgroup (alert_instance_ids, create_user_id, group_name, description,
                             create_time, update_time)
VALUES ('1,2', 1, 'default admin warning group', 'default admin warning group',
        '2018-11-29 10:20:39', '2018-11-29 10:20:39');

-- Which users may see which projects (besides owners and administrators). 2.0.9 has only the
-- index on user_id, not the unique constraint on (user_id, project_id) that 3.2 adds.
CREATE TABLE t_ds_relation_project_user (
  id          serial    NOT NULL,
  user_id     int       NOT NULL,
  project_id  int       DEFAULT NULL,
  perm        int       DEFAULT 1,
  create_time timestamp DEFAULT NULL,
  update_time timestamp DEFAULT NULL,
  PRIMARY KEY (id)
);
CREATE INDEX relation_project_user_id_index ON t_ds_relation_project_user (user_id);
ALTER TABLE t_ds_relation_project_user ALTER COLUMN id SET DEFAULT nextval('t_ds_relation_project_user_id_sequence');

-- ------------------------------------------------------------------------------------------
-- Quartz's own tables (its JDBC job store), as DolphinScheduler's DDL creates them.
--
-- Written for Hourglass from DolphinScheduler tag 2.0.9, file
-- dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_postgresql.sql
-- (commit 23302054).
-- DolphinScheduler's API server brings a schedule online by storing a Quartz job and its cron
-- trigger in these tables; Hourglass does the same. Quartz deletes from the other trigger
-- tables too when a job is removed, so every QRTZ_ table the file creates is here, with the
-- same column types, nullability, defaults, primary keys and indexes (names included), created
-- in the same order.
--
-- Names: the file writes them in upper case WITHOUT quotes, as here, so PostgreSQL folds them
-- to lower case: the tables are qrtz_job_details, qrtz_triggers, qrtz_cron_triggers,
-- qrtz_locks and so on, the columns sched_name, job_name, is_durable and so on, the indexes
-- idx_qrtz_j_grp and so on, and the primary keys (added by ALTER TABLE, unnamed, as the file
-- does) qrtz_job_details_pkey and so on. Do not quote them. Unlike the MySQL file, this one
-- declares no foreign keys between these tables, and the flag columns (IS_DURABLE,
-- IS_NONCONCURRENT, IS_UPDATE_DATA, REQUESTS_RECOVERY, BOOL_PROP_n) are boolean, not
-- varchar(1). The file inserts no rows into them (Quartz adds its qrtz_locks rows itself the
-- first time it takes a lock).

-- A job: the class Quartz runs and, in JOB_DATA, its serialized JobDataMap (DolphinScheduler
-- 2.0.9 puts projectId, scheduleId and the schedule as JSON in it).
CREATE TABLE QRTZ_JOB_DETAILS (
  SCHED_NAME        character varying(120) NOT NULL,
  JOB_NAME          character varying(200) NOT NULL,
  JOB_GROUP         character varying(200) NOT NULL,
  DESCRIPTION       character varying(250) NULL,
  JOB_CLASS_NAME    character varying(250) NOT NULL,
  IS_DURABLE        boolean NOT NULL,
  IS_NONCONCURRENT  boolean NOT NULL,
  IS_UPDATE_DATA    boolean NOT NULL,
  REQUESTS_RECOVERY boolean NOT NULL,
  JOB_DATA          bytea NULL
);
ALTER TABLE QRTZ_JOB_DETAILS ADD PRIMARY KEY (SCHED_NAME, JOB_NAME, JOB_GROUP);

-- A trigger of a job; its times are epoch milliseconds.
CREATE TABLE QRTZ_TRIGGERS (
  SCHED_NAME     character varying(120) NOT NULL,
  TRIGGER_NAME   character varying(200) NOT NULL,
  TRIGGER_GROUP  character varying(200) NOT NULL,
  JOB_NAME       character varying(200) NOT NULL,
  JOB_GROUP      character varying(200) NOT NULL,
  DESCRIPTION    character varying(250) NULL,
  NEXT_FIRE_TIME BIGINT NULL,
  PREV_FIRE_TIME BIGINT NULL,
  PRIORITY       INTEGER NULL,
  TRIGGER_STATE  character varying(16) NOT NULL,
  TRIGGER_TYPE   character varying(8) NOT NULL,
  START_TIME     BIGINT NOT NULL,
  END_TIME       BIGINT NULL,
  CALENDAR_NAME  character varying(200) NULL,
  MISFIRE_INSTR  SMALLINT NULL,
  JOB_DATA       bytea NULL
);
ALTER TABLE QRTZ_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);

CREATE TABLE QRTZ_SIMPLE_TRIGGERS (
  SCHED_NAME      character varying(120) NOT NULL,
  TRIGGER_NAME    character varying(200) NOT NULL,
  TRIGGER_GROUP   character varying(200) NOT NULL,
  REPEAT_COUNT    BIGINT NOT NULL,
  REPEAT_INTERVAL BIGINT NOT NULL,
  TIMES_TRIGGERED BIGINT NOT NULL
);
ALTER TABLE QRTZ_SIMPLE_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);

-- The cron expression and time zone of a trigger of type CRON.
CREATE TABLE QRTZ_CRON_TRIGGERS (
  SCHED_NAME      character varying(120) NOT NULL,
  TRIGGER_NAME    character varying(200) NOT NULL,
  TRIGGER_GROUP   character varying(200) NOT NULL,
  CRON_EXPRESSION character varying(120) NOT NULL,
  TIME_ZONE_ID    character varying(80)
);
ALTER TABLE QRTZ_CRON_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);

CREATE TABLE QRTZ_SIMPROP_TRIGGERS (
  SCHED_NAME    character varying(120) NOT NULL,
  TRIGGER_NAME  character varying(200) NOT NULL,
  TRIGGER_GROUP character varying(200) NOT NULL,
  STR_PROP_1    character varying(512) NULL,
  STR_PROP_2    character varying(512) NULL,
  STR_PROP_3    character varying(512) NULL,
  INT_PROP_1    INT NULL,
  INT_PROP_2    INT NULL,
  LONG_PROP_1   BIGINT NULL,
  LONG_PROP_2   BIGINT NULL,
  DEC_PROP_1    NUMERIC(13,4) NULL,
  DEC_PROP_2    NUMERIC(13,4) NULL,
  BOOL_PROP_1   boolean NULL,
  BOOL_PROP_2   boolean NULL
);
ALTER TABLE QRTZ_SIMPROP_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);

CREATE TABLE QRTZ_BLOB_TRIGGERS (
  SCHED_NAME    character varying(120) NOT NULL,
  TRIGGER_NAME  character varying(200) NOT NULL,
  TRIGGER_GROUP character varying(200) NOT NULL,
  BLOB_DATA     bytea NULL
);
ALTER TABLE QRTZ_BLOB_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);

CREATE TABLE QRTZ_CALENDARS (
  SCHED_NAME    character varying(120) NOT NULL,
  CALENDAR_NAME character varying(200) NOT NULL,
  CALENDAR      bytea NOT NULL
);
ALTER TABLE QRTZ_CALENDARS ADD PRIMARY KEY (SCHED_NAME, CALENDAR_NAME);

CREATE TABLE QRTZ_PAUSED_TRIGGER_GRPS (
  SCHED_NAME    character varying(120) NOT NULL,
  TRIGGER_GROUP character varying(200) NOT NULL
);
ALTER TABLE QRTZ_PAUSED_TRIGGER_GRPS ADD PRIMARY KEY (SCHED_NAME, TRIGGER_GROUP);

CREATE TABLE QRTZ_FIRED_TRIGGERS (
  SCHED_NAME        character varying(120) NOT NULL,
  ENTRY_ID          character varying(200) NOT NULL,
  TRIGGER_NAME      character varying(200) NOT NULL,
  TRIGGER_GROUP     character varying(200) NOT NULL,
  INSTANCE_NAME     character varying(200) NOT NULL,
  FIRED_TIME        BIGINT NOT NULL,
  SCHED_TIME        BIGINT NOT NULL,
  PRIORITY          INTEGER NOT NULL,
  STATE             character varying(16) NOT NULL,
  JOB_NAME          character varying(200) NULL,
  JOB_GROUP         character varying(200) NULL,
  IS_NONCONCURRENT  boolean NULL,
  REQUESTS_RECOVERY boolean NULL
);
ALTER TABLE QRTZ_FIRED_TRIGGERS ADD PRIMARY KEY (SCHED_NAME, ENTRY_ID);

CREATE TABLE QRTZ_SCHEDULER_STATE (
  SCHED_NAME        character varying(120) NOT NULL,
  INSTANCE_NAME     character varying(200) NOT NULL,
  LAST_CHECKIN_TIME BIGINT NOT NULL,
  CHECKIN_INTERVAL  BIGINT NOT NULL
);
ALTER TABLE QRTZ_SCHEDULER_STATE ADD PRIMARY KEY (SCHED_NAME, INSTANCE_NAME);

-- The row locks Quartz takes (SELECT ... FOR UPDATE) around changes to the job store.
CREATE TABLE QRTZ_LOCKS (
  SCHED_NAME character varying(120) NOT NULL,
  LOCK_NAME  character varying(40) NOT NULL
);
ALTER TABLE QRTZ_LOCKS ADD PRIMARY KEY (SCHED_NAME, LOCK_NAME);

CREATE INDEX IDX_QRTZ_J_REQ_RECOVERY ON QRTZ_JOB_DETAILS (SCHED_NAME, REQUESTS_RECOVERY);
CREATE INDEX IDX_QRTZ_J_GRP ON QRTZ_JOB_DETAILS (SCHED_NAME, JOB_GROUP);

CREATE INDEX IDX_QRTZ_T_J ON QRTZ_TRIGGERS (SCHED_NAME, JOB_NAME, JOB_GROUP);
CREATE INDEX IDX_QRTZ_T_JG ON QRTZ_TRIGGERS (SCHED_NAME, JOB_GROUP);
CREATE INDEX IDX_QRTZ_T_C ON QRTZ_TRIGGERS (SCHED_NAME, CALENDAR_NAME);
CREATE INDEX IDX_QRTZ_T_G ON QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_GROUP);
CREATE INDEX IDX_QRTZ_T_STATE ON QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_STATE);
CREATE INDEX IDX_QRTZ_T_N_STATE ON QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP, TRIGGER_STATE);
CREATE INDEX IDX_QRTZ_T_N_G_STATE ON QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_GROUP, TRIGGER_STATE);
CREATE INDEX IDX_QRTZ_T_NEXT_FIRE_TIME ON QRTZ_TRIGGERS (SCHED_NAME, NEXT_FIRE_TIME);
CREATE INDEX IDX_QRTZ_T_NFT_ST ON QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_STATE, NEXT_FIRE_TIME);
CREATE INDEX IDX_QRTZ_T_NFT_MISFIRE ON QRTZ_TRIGGERS (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME);
CREATE INDEX IDX_QRTZ_T_NFT_ST_MISFIRE ON QRTZ_TRIGGERS (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME, TRIGGER_STATE);
CREATE INDEX IDX_QRTZ_T_NFT_ST_MISFIRE_GRP ON QRTZ_TRIGGERS (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME, TRIGGER_GROUP, TRIGGER_STATE);

CREATE INDEX IDX_QRTZ_FT_TRIG_INST_NAME ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, INSTANCE_NAME);
CREATE INDEX IDX_QRTZ_FT_INST_JOB_REQ_RCVRY ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, INSTANCE_NAME, REQUESTS_RECOVERY);
CREATE INDEX IDX_QRTZ_FT_J_G ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, JOB_NAME, JOB_GROUP);
CREATE INDEX IDX_QRTZ_FT_JG ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, JOB_GROUP);
CREATE INDEX IDX_QRTZ_FT_T_G ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP);
CREATE INDEX IDX_QRTZ_FT_TG ON QRTZ_FIRED_TRIGGERS (SCHED_NAME, TRIGGER_GROUP);
