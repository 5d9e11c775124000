-- Apache DolphinScheduler 2.0.x metadata schema, MySQL/MariaDB dialect, for Hourglass's tests.
--
-- Written for Hourglass from DolphinScheduler tag 2.0.9, file
-- dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_mysql.sql (commit 23302054).
-- It holds only the tables Hourglass reads and writes, with the same column names, types,
-- nullability, defaults, primary keys, unique keys, indexes and foreign key, and the default
-- rows that file inserts into them. Column and table comments and the tables Hourglass never
-- touches are left out, and nothing is dropped first: load it into an empty database.
--
-- These are the tables of the 3.2 file less t_ds_trigger_relation, which 2.0.9 does not have.
-- Unlike 3.2.2, the 2.0.9 file gives its tables DEFAULT CHARSET=utf8 with no COLLATE, so they
-- take utf8's default collation (utf8_general_ci on MariaDB 10.x and MySQL: comparisons and
-- unique keys ignore case), not utf8_bin. It inserts no tenant: the 'default' tenant -1 came
-- in 3.x.

-- Schema version. The 2.0.9 file records '2.0.9' here.
CREATE TABLE `t_ds_version` (
  `id`      int(11)      NOT NULL AUTO_INCREMENT,
  `version` varchar(200) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `version_UNIQUE` (`version`)
) ENGINE=InnoDB AUTO_INCREMENT=2 DEFAULT CHARSET=utf8;

INSERT INTO `t_ds_version` (`id`, `version`) VALUES (1, '2.0.9');

-- Users; the installer creates 'admin' (password dolphinscheduler123, stored as an MD5 hex),
-- with tenant_id 0 (there is no such tenant). No time_zone column yet.
CREATE TABLE `t_ds_user` (
  `id`            int(11)     NOT NULL AUTO_INCREMENT,
  `user_name`     varchar(64) DEFAULT NULL,
  `user_password` varchar(64) DEFAULT NULL,
  `user_type`     tinyint(4)  DEFAULT NULL,
  `email`         varchar(64) DEFAULT NULL,
  `phone`         varchar(11) DEFAULT NULL,
  `tenant_id`     int(11)     DEFAULT NULL,
  `create_time`   datetime    DEFAULT NULL,
  `update_time`   datetime    DEFAULT NULL,
  `queue`         varchar(64) DEFAULT NULL,
  `state`         tinyint(4)  DEFAULT 1,
  PRIMARY KEY (`id`),
  UNIQUE KEY `user_name_unique` (`user_name`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

INSERT INTO `t_ds_user`
  (`id`, `user_name`, `user_password`, `user_type`, `email`, `phone`, `tenant_id`,
   `create_time`, `update_time`, `queue`, `state`)
VALUES
  (1, 'admin', '7ad2410b2f4c074479a8937a28a22b8f', 0, 'xxx@qq.com', '', 0,
   '2018-03-27 15:48:50', '2018-10-24 17:40:22', NULL, 1);

-- Tenants; 2.0.9 has no unique key on tenant_code and creates no tenant.
CREATE TABLE `t_ds_tenant` (
  `id`          int(11)      NOT NULL AUTO_INCREMENT,
  `tenant_code` varchar(64)  DEFAULT NULL,
  `description` varchar(255) DEFAULT NULL,
  `queue_id`    int(11)      DEFAULT NULL,
  `create_time` datetime     DEFAULT NULL,
  `update_time` datetime     DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Projects; no unique key on name or code in 2.0.9.
CREATE TABLE `t_ds_project` (
  `id`          int(11)      NOT NULL AUTO_INCREMENT,
  `name`        varchar(100) DEFAULT NULL,
  `code`        bigint(20)   NOT NULL,
  `description` varchar(200) DEFAULT NULL,
  `user_id`     int(11)      DEFAULT NULL,
  `flag`        tinyint(4)   DEFAULT 1,
  `create_time` datetime     NOT NULL,
  `update_time` datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `user_id_index` (`user_id`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Workflow definitions (current version) and their version history. In 2.0.9 a definition
-- carries its tenant (tenant_id), and version is nullable with default 0.
CREATE TABLE `t_ds_process_definition` (
  `id`               int(11)      NOT NULL AUTO_INCREMENT,
  `code`             bigint(20)   NOT NULL,
  `name`             varchar(255) DEFAULT NULL,
  `version`          int(11)      DEFAULT 0,
  `description`      text,
  `project_code`     bigint(20)   NOT NULL,
  `release_state`    tinyint(4)   DEFAULT NULL,
  `user_id`          int(11)      DEFAULT NULL,
  `global_params`    text,
  `flag`             tinyint(4)   DEFAULT NULL,
  `locations`        text,
  `warning_group_id` int(11)      DEFAULT NULL,
  `timeout`          int(11)      DEFAULT 0,
  `tenant_id`        int(11)      NOT NULL DEFAULT -1,
  `execution_type`   tinyint(4)   DEFAULT 0,
  `create_time`      datetime     NOT NULL,
  `update_time`      datetime     NOT NULL,
  PRIMARY KEY (`id`, `code`),
  UNIQUE KEY `process_unique` (`name`, `project_code`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- No unique key on (code, version) in 2.0.9.
CREATE TABLE `t_ds_process_definition_log` (
  `id`               int(11)      NOT NULL AUTO_INCREMENT,
  `code`             bigint(20)   NOT NULL,
  `name`             varchar(200) DEFAULT NULL,
  `version`          int(11)      DEFAULT 0,
  `description`      text,
  `project_code`     bigint(20)   NOT NULL,
  `release_state`    tinyint(4)   DEFAULT NULL,
  `user_id`          int(11)      DEFAULT NULL,
  `global_params`    text,
  `flag`             tinyint(4)   DEFAULT NULL,
  `locations`        text,
  `warning_group_id` int(11)      DEFAULT NULL,
  `timeout`          int(11)      DEFAULT 0,
  `tenant_id`        int(11)      NOT NULL DEFAULT -1,
  `execution_type`   tinyint(4)   DEFAULT 0,
  `operator`         int(11)      DEFAULT NULL,
  `operate_time`     datetime     DEFAULT NULL,
  `create_time`      datetime     NOT NULL,
  `update_time`      datetime     NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Task definitions (current version) and their version history.
CREATE TABLE `t_ds_task_definition` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `code`                    bigint(20)   NOT NULL,
  `name`                    varchar(200) DEFAULT NULL,
  `version`                 int(11)      DEFAULT 0,
  `description`             text,
  `project_code`            bigint(20)   NOT NULL,
  `user_id`                 int(11)      DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_params`             longtext,
  `flag`                    tinyint(2)   DEFAULT NULL,
  `task_priority`           tinyint(4)   DEFAULT NULL,
  `worker_group`            varchar(200) DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `fail_retry_times`        int(11)      DEFAULT NULL,
  `fail_retry_interval`     int(11)      DEFAULT NULL,
  `timeout_flag`            tinyint(2)   DEFAULT 0,
  `timeout_notify_strategy` tinyint(4)   DEFAULT NULL,
  `timeout`                 int(11)      DEFAULT 0,
  `delay_time`              int(11)      DEFAULT 0,
  `resource_ids`            text,
  `create_time`             datetime     NOT NULL,
  `update_time`             datetime     NOT NULL,
  PRIMARY KEY (`id`, `code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

CREATE TABLE `t_ds_task_definition_log` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `code`                    bigint(20)   NOT NULL,
  `name`                    varchar(200) DEFAULT NULL,
  `version`                 int(11)      DEFAULT 0,
  `description`             text,
  `project_code`            bigint(20)   NOT NULL,
  `user_id`                 int(11)      DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_params`             longtext,
  `flag`                    tinyint(2)   DEFAULT NULL,
  `task_priority`           tinyint(4)   DEFAULT NULL,
  `worker_group`            varchar(200) DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `fail_retry_times`        int(11)      DEFAULT NULL,
  `fail_retry_interval`     int(11)      DEFAULT NULL,
  `timeout_flag`            tinyint(2)   DEFAULT 0,
  `timeout_notify_strategy` tinyint(4)   DEFAULT NULL,
  `timeout`                 int(11)      DEFAULT 0,
  `delay_time`              int(11)      DEFAULT 0,
  `resource_ids`            text         DEFAULT NULL,
  `operator`                int(11)      DEFAULT NULL,
  `operate_time`            datetime     DEFAULT NULL,
  `create_time`             datetime     NOT NULL,
  `update_time`             datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_code_version` (`code`, `version`),
  KEY `idx_project_code` (`project_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Edges of a workflow's DAG (pre_task_code 0 marks a root task), current and history.
CREATE TABLE `t_ds_process_task_relation` (
  `id`                         int(11)      NOT NULL AUTO_INCREMENT,
  `name`                       varchar(200) DEFAULT NULL,
  `project_code`               bigint(20)   NOT NULL,
  `process_definition_code`    bigint(20)   NOT NULL,
  `process_definition_version` int(11)      NOT NULL,
  `pre_task_code`              bigint(20)   NOT NULL,
  `pre_task_version`           int(11)      NOT NULL,
  `post_task_code`             bigint(20)   NOT NULL,
  `post_task_version`          int(11)      NOT NULL,
  `condition_type`             tinyint(2)   DEFAULT NULL,
  `condition_params`           text,
  `create_time`                datetime     NOT NULL,
  `update_time`                datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_code` (`project_code`, `process_definition_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

CREATE TABLE `t_ds_process_task_relation_log` (
  `id`                         int(11)      NOT NULL AUTO_INCREMENT,
  `name`                       varchar(200) DEFAULT NULL,
  `project_code`               bigint(20)   NOT NULL,
  `process_definition_code`    bigint(20)   NOT NULL,
  `process_definition_version` int(11)      NOT NULL,
  `pre_task_code`              bigint(20)   NOT NULL,
  `pre_task_version`           int(11)      NOT NULL,
  `post_task_code`             bigint(20)   NOT NULL,
  `post_task_version`          int(11)      NOT NULL,
  `condition_type`             tinyint(2)   DEFAULT NULL,
  `condition_params`           text,
  `operator`                   int(11)      DEFAULT NULL,
  `operate_time`               datetime     DEFAULT NULL,
  `create_time`                datetime     NOT NULL,
  `update_time`                datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_process_code_version` (`process_definition_code`, `process_definition_version`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Workflow runs. In 2.0.9 a run records tenant_id (not tenant_code), and has no project_code,
-- state_history, executor_name or test_flag.
CREATE TABLE `t_ds_process_instance` (
  `id`                         int(11)      NOT NULL AUTO_INCREMENT,
  `name`                       varchar(255) DEFAULT NULL,
  `process_definition_code`    bigint(20)   NOT NULL,
  `process_definition_version` int(11)      DEFAULT 0,
  `state`                      tinyint(4)   DEFAULT NULL,
  `recovery`                   tinyint(4)   DEFAULT NULL,
  `start_time`                 datetime     DEFAULT NULL,
  `end_time`                   datetime     DEFAULT NULL,
  `run_times`                  int(11)      DEFAULT NULL,
  `host`                       varchar(135) DEFAULT NULL,
  `command_type`               tinyint(4)   DEFAULT NULL,
  `command_param`              text,
  `task_depend_type`           tinyint(4)   DEFAULT NULL,
  `max_try_times`              tinyint(4)   DEFAULT 0,
  `failure_strategy`           tinyint(4)   DEFAULT 0,
  `warning_type`               tinyint(4)   DEFAULT 0,
  `warning_group_id`           int(11)      DEFAULT NULL,
  `schedule_time`              datetime     DEFAULT NULL,
  `command_start_time`         datetime     DEFAULT NULL,
  `global_params`              text,
  `flag`                       tinyint(4)   DEFAULT 1,
  `update_time`                timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  `is_sub_process`             int(11)      DEFAULT 0,
  `executor_id`                int(11)      NOT NULL,
  `history_cmd`                text,
  `process_instance_priority`  int(11)      DEFAULT NULL,
  `worker_group`               varchar(64)  DEFAULT NULL,
  `environment_code`           bigint(20)   DEFAULT -1,
  `timeout`                    int(11)      DEFAULT 0,
  `tenant_id`                  int(11)      NOT NULL DEFAULT -1,
  `var_pool`                   longtext,
  `dry_run`                    tinyint(4)   DEFAULT 0,
  `next_process_instance_id`   int(11)      DEFAULT 0,
  `restart_time`               datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `process_instance_index` (`process_definition_code`, `id`) USING BTREE,
  KEY `start_time_index` (`start_time`, `end_time`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Task runs. In this dialect a foreign key ties each task run to its workflow run (3.2.2 has
-- none; it went in 3.1.0): deleting a workflow run deletes its task runs, a task run cannot
-- name a workflow run that does not exist, and t_ds_process_instance cannot be truncated.
-- The 2.0.9 file turns FOREIGN_KEY_CHECKS off only while it loads.
CREATE TABLE `t_ds_task_instance` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `name`                    varchar(255) DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_code`               bigint(20)   NOT NULL,
  `task_definition_version` int(11)      DEFAULT 0,
  `process_instance_id`     int(11)      DEFAULT NULL,
  `state`                   tinyint(4)   DEFAULT NULL,
  `submit_time`             datetime     DEFAULT NULL,
  `start_time`              datetime     DEFAULT NULL,
  `end_time`                datetime     DEFAULT NULL,
  `host`                    varchar(135) DEFAULT NULL,
  `execute_path`            varchar(200) DEFAULT NULL,
  `log_path`                varchar(200) DEFAULT NULL,
  `alert_flag`              tinyint(4)   DEFAULT NULL,
  `retry_times`             int(4)       DEFAULT 0,
  `pid`                     int(4)       DEFAULT NULL,
  `app_link`                longtext,
  `task_params`             longtext,
  `flag`                    tinyint(4)   DEFAULT 1,
  `retry_interval`          int(4)       DEFAULT NULL,
  `max_retry_times`         int(2)       DEFAULT NULL,
  `task_instance_priority`  int(11)      DEFAULT NULL,
  `worker_group`            varchar(64)  DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `environment_config`      text,
  `executor_id`             int(11)      DEFAULT NULL,
  `first_submit_time`       datetime     DEFAULT NULL,
  `delay_time`              int(4)       DEFAULT 0,
  `var_pool`                longtext,
  `dry_run`                 tinyint(4)   DEFAULT 0,
  PRIMARY KEY (`id`),
  KEY `process_instance_id` (`process_instance_id`) USING BTREE,
  KEY `idx_code_version` (`task_code`, `task_definition_version`) USING BTREE,
  CONSTRAINT `foreign_key_instance_id` FOREIGN KEY (`process_instance_id`)
    REFERENCES `t_ds_process_instance` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Cron schedules, one per workflow definition in practice (not enforced in 2.0).
CREATE TABLE `t_ds_schedules` (
  `id`                        int(11)      NOT NULL AUTO_INCREMENT,
  `process_definition_code`   bigint(20)   NOT NULL,
  `start_time`                datetime     NOT NULL,
  `end_time`                  datetime     NOT NULL,
  `timezone_id`               varchar(40)  DEFAULT NULL,
  `crontab`                   varchar(255) NOT NULL,
  `failure_strategy`          tinyint(4)   NOT NULL,
  `user_id`                   int(11)      NOT NULL,
  `release_state`             tinyint(4)   NOT NULL,
  `warning_type`              tinyint(4)   NOT NULL,
  `warning_group_id`          int(11)      DEFAULT NULL,
  `process_instance_priority` int(11)      DEFAULT NULL,
  `worker_group`              varchar(64)  DEFAULT '',
  `environment_code`          bigint(20)   DEFAULT -1,
  `create_time`               datetime     NOT NULL,
  `update_time`               datetime     NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Queue the master polls for work (start, rerun, pause, stop, ...).
CREATE TABLE `t_ds_command` (
  `id`                         int(11)     NOT NULL AUTO_INCREMENT,
  `command_type`               tinyint(4)  DEFAULT NULL,
  `process_definition_code`    bigint(20)  NOT NULL,
  `process_definition_version` int(11)     DEFAULT 0,
  `process_instance_id`        int(11)     DEFAULT 0,
  `command_param`              text,
  `task_depend_type`           tinyint(4)  DEFAULT NULL,
  `failure_strategy`           tinyint(4)  DEFAULT 0,
  `warning_type`               tinyint(4)  DEFAULT 0,
  `warning_group_id`           int(11)     DEFAULT NULL,
  `schedule_time`              datetime    DEFAULT NULL,
  `start_time`                 datetime    DEFAULT NULL,
  `executor_id`                int(11)     DEFAULT NULL,
  `update_time`                datetime    DEFAULT NULL,
  `process_instance_priority`  int(11)     DEFAULT NULL,
  `worker_group`               varchar(64),
  `environment_code`           bigint(20)  DEFAULT -1,
  `dry_run`                    tinyint(4)  DEFAULT 0,
  PRIMARY KEY (`id`),
  KEY `priority_id_index` (`process_instance_priority`, `id`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Commands the master could not handle; id is copied from t_ds_command (no auto-increment).
CREATE TABLE `t_ds_error_command` (
  `id`                         int(11)     NOT NULL,
  `command_type`               tinyint(4)  DEFAULT NULL,
  `executor_id`                int(11)     DEFAULT NULL,
  `process_definition_code`    bigint(20)  NOT NULL,
  `process_definition_version` int(11)     DEFAULT 0,
  `process_instance_id`        int(11)     DEFAULT 0,
  `command_param`              text,
  `task_depend_type`           tinyint(4)  DEFAULT NULL,
  `failure_strategy`           tinyint(4)  DEFAULT 0,
  `warning_type`               tinyint(4)  DEFAULT 0,
  `warning_group_id`           int(11)     DEFAULT NULL,
  `schedule_time`              datetime    DEFAULT NULL,
  `start_time`                 datetime    DEFAULT NULL,
  `update_time`                datetime    DEFAULT NULL,
  `process_instance_priority`  int(11)     DEFAULT NULL,
  `worker_group`               varchar(64),
  `environment_code`           bigint(20)  DEFAULT -1,
  `message`                    text,
  `dry_run`                    tinyint(4)  DEFAULT 0,
  PRIMARY KEY (`id`) USING BTREE
) ENGINE=InnoDB DEFAULT CHARSET=utf8 ROW_FORMAT=DYNAMIC;

CREATE TABLE `t_ds_environment` (
  `id`          bigint(11)   NOT NULL AUTO_INCREMENT,
  `code`        bigint(20)   DEFAULT NULL,
  `name`        varchar(100) NOT NULL,
  `config`      text         NULL DEFAULT NULL,
  `description` text         NULL DEFAULT NULL,
  `operator`    int(11)      DEFAULT NULL,
  `create_time` timestamp    NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time` timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `environment_name_unique` (`name`),
  UNIQUE KEY `environment_code_unique` (`code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

CREATE TABLE `t_ds_environment_worker_group_relation` (
  `id`               bigint(11)   NOT NULL AUTO_INCREMENT,
  `environment_code` bigint(20)   NOT NULL,
  `worker_group`     varchar(255) NOT NULL,
  `operator`         int(11)      DEFAULT NULL,
  `create_time`      timestamp    NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time`      timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `environment_worker_group_unique` (`environment_code`, `worker_group`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Worker groups created in the UI; the implicit 'default' group has no row.
CREATE TABLE `t_ds_worker_group` (
  `id`          bigint(11)   NOT NULL AUTO_INCREMENT,
  `name`        varchar(255) NOT NULL,
  `addr_list`   text         NULL DEFAULT NULL,
  `create_time` datetime     NULL DEFAULT NULL,
  `update_time` datetime     NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `name_unique` (`name`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- Alert groups; the 2.0.9 file creates one (id 1), naming alert instances 1 and 2, which it
-- does not create.
CREATE TABLE `t_ds_alertgroup` (
  `id`                 int(11)      NOT NULL AUTO_INCREMENT,
  `alert_instance_ids` varchar(255) DEFAULT NULL,
  `create_user_id`     int(11)      DEFAULT NULL,
  `group_name`         varchar(255) DEFAULT NULL,
  `description`        varchar(255) DEFAULT NULL,
  `create_time`        datetime     DEFAULT NULL,
  `update_time`        datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `t_ds_alertgroup_name_un` (`group_name`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

INSERT INTO `t_ds_alertgroup`
  (`alert_instance_ids`, `create_user_id`, `group_name`, `description`, `create_time`, `update_time`)
VALUES
  ('1,2', 1, 'default admin warning group', 'default admin warning group',
   '2018-11-29 10:20:39', '2018-11-29 10:20:39');

-- Which users may see which projects (besides owners and administrators). 2.0.9 has a plain
-- index on user_id where 3.2 has a unique key on (user_id, project_id).
CREATE TABLE `t_ds_relation_project_user` (
  `id`          int(11)  NOT NULL AUTO_INCREMENT,
  `user_id`     int(11)  NOT NULL,
  `project_id`  int(11)  DEFAULT NULL,
  `perm`        int(11)  DEFAULT 1,
  `create_time` datetime DEFAULT NULL,
  `update_time` datetime DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `user_id_index` (`user_id`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;

-- ------------------------------------------------------------------------------------------
-- Quartz's own tables (its JDBC job store), as DolphinScheduler's DDL creates them.
--
-- Written for Hourglass from DolphinScheduler tag 2.0.9, file
-- dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_mysql.sql (commit 23302054).
-- DolphinScheduler's API server brings a schedule online by storing a Quartz job and its cron
-- trigger in these tables; Hourglass does the same. Quartz deletes from the other trigger
-- tables too when a job is removed, so every QRTZ_ table the file creates is here, with the
-- same upper-case table and column names, types, nullability, defaults, primary keys, indexes
-- and foreign keys (names included). The file creates them alphabetically after
-- SET FOREIGN_KEY_CHECKS=0; here they come in an order in which each foreign key finds its
-- table, which gives the same tables. The file inserts no rows into them (Quartz adds its
-- QRTZ_LOCKS rows itself the first time it takes a lock). Like the tables above, the 2.0.9
-- file gives them DEFAULT CHARSET=utf8 with no COLLATE.

-- A job: the class Quartz runs and, in JOB_DATA, its serialized JobDataMap (DolphinScheduler
-- 2.0.9 puts projectId, scheduleId and the schedule as JSON in it). The IS_ flags and
-- REQUESTS_RECOVERY are varchar(1), holding '0' or '1'.
CREATE TABLE `QRTZ_JOB_DETAILS` (
  `SCHED_NAME`        varchar(120) NOT NULL,
  `JOB_NAME`          varchar(200) NOT NULL,
  `JOB_GROUP`         varchar(200) NOT NULL,
  `DESCRIPTION`       varchar(250) DEFAULT NULL,
  `JOB_CLASS_NAME`    varchar(250) NOT NULL,
  `IS_DURABLE`        varchar(1)   NOT NULL,
  `IS_NONCONCURRENT`  varchar(1)   NOT NULL,
  `IS_UPDATE_DATA`    varchar(1)   NOT NULL,
  `REQUESTS_RECOVERY` varchar(1)   NOT NULL,
  `JOB_DATA`          blob,
  PRIMARY KEY (`SCHED_NAME`,`JOB_NAME`,`JOB_GROUP`),
  KEY `IDX_QRTZ_J_REQ_RECOVERY` (`SCHED_NAME`,`REQUESTS_RECOVERY`),
  KEY `IDX_QRTZ_J_GRP` (`SCHED_NAME`,`JOB_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- A trigger of a job; its times are epoch milliseconds.
CREATE TABLE `QRTZ_TRIGGERS` (
  `SCHED_NAME`     varchar(120) NOT NULL,
  `TRIGGER_NAME`   varchar(200) NOT NULL,
  `TRIGGER_GROUP`  varchar(200) NOT NULL,
  `JOB_NAME`       varchar(200) NOT NULL,
  `JOB_GROUP`      varchar(200) NOT NULL,
  `DESCRIPTION`    varchar(250) DEFAULT NULL,
  `NEXT_FIRE_TIME` bigint(13)   DEFAULT NULL,
  `PREV_FIRE_TIME` bigint(13)   DEFAULT NULL,
  `PRIORITY`       int(11)      DEFAULT NULL,
  `TRIGGER_STATE`  varchar(16)  NOT NULL,
  `TRIGGER_TYPE`   varchar(8)   NOT NULL,
  `START_TIME`     bigint(13)   NOT NULL,
  `END_TIME`       bigint(13)   DEFAULT NULL,
  `CALENDAR_NAME`  varchar(200) DEFAULT NULL,
  `MISFIRE_INSTR`  smallint(2)  DEFAULT NULL,
  `JOB_DATA`       blob,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  KEY `IDX_QRTZ_T_J` (`SCHED_NAME`,`JOB_NAME`,`JOB_GROUP`),
  KEY `IDX_QRTZ_T_JG` (`SCHED_NAME`,`JOB_GROUP`),
  KEY `IDX_QRTZ_T_C` (`SCHED_NAME`,`CALENDAR_NAME`),
  KEY `IDX_QRTZ_T_G` (`SCHED_NAME`,`TRIGGER_GROUP`),
  KEY `IDX_QRTZ_T_STATE` (`SCHED_NAME`,`TRIGGER_STATE`),
  KEY `IDX_QRTZ_T_N_STATE` (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`,`TRIGGER_STATE`),
  KEY `IDX_QRTZ_T_N_G_STATE` (`SCHED_NAME`,`TRIGGER_GROUP`,`TRIGGER_STATE`),
  KEY `IDX_QRTZ_T_NEXT_FIRE_TIME` (`SCHED_NAME`,`NEXT_FIRE_TIME`),
  KEY `IDX_QRTZ_T_NFT_ST` (`SCHED_NAME`,`TRIGGER_STATE`,`NEXT_FIRE_TIME`),
  KEY `IDX_QRTZ_T_NFT_MISFIRE` (`SCHED_NAME`,`MISFIRE_INSTR`,`NEXT_FIRE_TIME`),
  KEY `IDX_QRTZ_T_NFT_ST_MISFIRE` (`SCHED_NAME`,`MISFIRE_INSTR`,`NEXT_FIRE_TIME`,`TRIGGER_STATE`),
  KEY `IDX_QRTZ_T_NFT_ST_MISFIRE_GRP` (`SCHED_NAME`,`MISFIRE_INSTR`,`NEXT_FIRE_TIME`,`TRIGGER_GROUP`,`TRIGGER_STATE`),
  CONSTRAINT `QRTZ_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `JOB_NAME`, `JOB_GROUP`) REFERENCES `QRTZ_JOB_DETAILS` (`SCHED_NAME`, `JOB_NAME`, `JOB_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- The cron expression and time zone of a trigger of type CRON.
CREATE TABLE `QRTZ_CRON_TRIGGERS` (
  `SCHED_NAME`      varchar(120) NOT NULL,
  `TRIGGER_NAME`    varchar(200) NOT NULL,
  `TRIGGER_GROUP`   varchar(200) NOT NULL,
  `CRON_EXPRESSION` varchar(120) NOT NULL,
  `TIME_ZONE_ID`    varchar(80)  DEFAULT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_CRON_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_SIMPLE_TRIGGERS` (
  `SCHED_NAME`      varchar(120) NOT NULL,
  `TRIGGER_NAME`    varchar(200) NOT NULL,
  `TRIGGER_GROUP`   varchar(200) NOT NULL,
  `REPEAT_COUNT`    bigint(7)    NOT NULL,
  `REPEAT_INTERVAL` bigint(12)   NOT NULL,
  `TIMES_TRIGGERED` bigint(10)   NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_SIMPLE_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_SIMPROP_TRIGGERS` (
  `SCHED_NAME`    varchar(120)  NOT NULL,
  `TRIGGER_NAME`  varchar(200)  NOT NULL,
  `TRIGGER_GROUP` varchar(200)  NOT NULL,
  `STR_PROP_1`    varchar(512)  DEFAULT NULL,
  `STR_PROP_2`    varchar(512)  DEFAULT NULL,
  `STR_PROP_3`    varchar(512)  DEFAULT NULL,
  `INT_PROP_1`    int(11)       DEFAULT NULL,
  `INT_PROP_2`    int(11)       DEFAULT NULL,
  `LONG_PROP_1`   bigint(20)    DEFAULT NULL,
  `LONG_PROP_2`   bigint(20)    DEFAULT NULL,
  `DEC_PROP_1`    decimal(13,4) DEFAULT NULL,
  `DEC_PROP_2`    decimal(13,4) DEFAULT NULL,
  `BOOL_PROP_1`   varchar(1)    DEFAULT NULL,
  `BOOL_PROP_2`   varchar(1)    DEFAULT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_SIMPROP_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- The file also gives this table a plain index named SCHED_NAME on its primary key columns.
CREATE TABLE `QRTZ_BLOB_TRIGGERS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `TRIGGER_NAME`  varchar(200) NOT NULL,
  `TRIGGER_GROUP` varchar(200) NOT NULL,
  `BLOB_DATA`     blob,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  KEY `SCHED_NAME` (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_BLOB_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_CALENDARS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `CALENDAR_NAME` varchar(200) NOT NULL,
  `CALENDAR`      blob         NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`CALENDAR_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_PAUSED_TRIGGER_GRPS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `TRIGGER_GROUP` varchar(200) NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_FIRED_TRIGGERS` (
  `SCHED_NAME`        varchar(120) NOT NULL,
  `ENTRY_ID`          varchar(200) NOT NULL,
  `TRIGGER_NAME`      varchar(200) NOT NULL,
  `TRIGGER_GROUP`     varchar(200) NOT NULL,
  `INSTANCE_NAME`     varchar(200) NOT NULL,
  `FIRED_TIME`        bigint(13)   NOT NULL,
  `SCHED_TIME`        bigint(13)   NOT NULL,
  `PRIORITY`          int(11)      NOT NULL,
  `STATE`             varchar(16)  NOT NULL,
  `JOB_NAME`          varchar(200) DEFAULT NULL,
  `JOB_GROUP`         varchar(200) DEFAULT NULL,
  `IS_NONCONCURRENT`  varchar(1)   DEFAULT NULL,
  `REQUESTS_RECOVERY` varchar(1)   DEFAULT NULL,
  PRIMARY KEY (`SCHED_NAME`,`ENTRY_ID`),
  KEY `IDX_QRTZ_FT_TRIG_INST_NAME` (`SCHED_NAME`,`INSTANCE_NAME`),
  KEY `IDX_QRTZ_FT_INST_JOB_REQ_RCVRY` (`SCHED_NAME`,`INSTANCE_NAME`,`REQUESTS_RECOVERY`),
  KEY `IDX_QRTZ_FT_J_G` (`SCHED_NAME`,`JOB_NAME`,`JOB_GROUP`),
  KEY `IDX_QRTZ_FT_JG` (`SCHED_NAME`,`JOB_GROUP`),
  KEY `IDX_QRTZ_FT_T_G` (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  KEY `IDX_QRTZ_FT_TG` (`SCHED_NAME`,`TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `QRTZ_SCHEDULER_STATE` (
  `SCHED_NAME`        varchar(120) NOT NULL,
  `INSTANCE_NAME`     varchar(200) NOT NULL,
  `LAST_CHECKIN_TIME` bigint(13)   NOT NULL,
  `CHECKIN_INTERVAL`  bigint(13)   NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`INSTANCE_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- The row locks Quartz takes (SELECT ... FOR UPDATE) around changes to the job store.
CREATE TABLE `QRTZ_LOCKS` (
  `SCHED_NAME` varchar(120) NOT NULL,
  `LOCK_NAME`  varchar(40)  NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`LOCK_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
