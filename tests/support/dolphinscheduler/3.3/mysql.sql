-- Apache DolphinScheduler 3.3.x metadata schema (the "workflow" names), MySQL/MariaDB dialect,
-- for Hourglass's tests.
--
-- Written for Hourglass from dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_mysql.sql.
-- No 3.3.x tag was available to us (our mirror of apache/dolphinscheduler ends on branch dev at
-- 7e0095dc, 2024-10-18, which already has the process -> workflow renames). This file takes that
-- dev file and brings it to the schema of release 3.3.2 with the changes in DolphinScheduler's
-- own upgrade scripts sql/upgrade/3.3.0_schema (final form), 3.3.1_schema and 3.3.2_schema:
--   3.3.0: idx_project_code on t_ds_workflow_definition(_log) and t_ds_task_definition;
--          is_cache dropped (task definitions and instances), cache_key and idx_cache_key
--          dropped (task instances), other_params_json dropped (worker groups);
--   3.3.1: t_ds_workflow_definition keyed by id alone plus a unique key on code; test_flag
--          dropped from t_ds_command, t_ds_error_command, t_ds_workflow_instance and
--          t_ds_task_instance;
--   3.3.2: unique key on t_ds_schedules(workflow_definition_code).
-- It holds only the tables Hourglass reads and writes (20, and Quartz's at the end), with the same column names, types,
-- nullability, defaults, primary keys, unique keys and indexes, and the default rows the file
-- inserts into them. Column comments and the tables Hourglass never touches are left out, and
-- nothing is dropped first: load it into an empty database.

-- Schema version. Every 3.3-line file we could read records '3.3.0' (as 3.2.2's already did);
-- kept as it is.
CREATE TABLE `t_ds_version` (
  `id`      int(11)     NOT NULL AUTO_INCREMENT,
  `version` varchar(63) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `version_UNIQUE` (`version`)
) ENGINE=InnoDB AUTO_INCREMENT=2 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

INSERT IGNORE INTO `t_ds_version` (`id`, `version`) VALUES (1, '3.3.0');

-- Users; the installer creates 'admin' (password dolphinscheduler123, stored as an MD5 hex).
CREATE TABLE `t_ds_user` (
  `id`            int(11)     NOT NULL AUTO_INCREMENT,
  `user_name`     varchar(64) DEFAULT NULL,
  `user_password` varchar(64) DEFAULT NULL,
  `user_type`     tinyint(4)  DEFAULT NULL,
  `email`         varchar(64) DEFAULT NULL,
  `phone`         varchar(11) DEFAULT NULL,
  `tenant_id`     int(11)     DEFAULT -1,
  `create_time`   datetime    DEFAULT NULL,
  `update_time`   datetime    DEFAULT NULL,
  `queue`         varchar(64) DEFAULT NULL,
  `state`         tinyint(4)  DEFAULT 1,
  `time_zone`     varchar(32) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `user_name_unique` (`user_name`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

INSERT IGNORE INTO `t_ds_user`
  (`id`, `user_name`, `user_password`, `user_type`, `email`, `phone`, `tenant_id`,
   `create_time`, `update_time`, `queue`, `state`, `time_zone`)
VALUES
  (1, 'admin', '7ad2410b2f4c074479a8937a28a22b8f', 0, 'xxx@qq.com', '', -1,
   current_timestamp, current_timestamp, NULL, 1, NULL);

-- Tenants; id -1 is the built-in 'default' tenant.
CREATE TABLE `t_ds_tenant` (
  `id`          int(11)      NOT NULL AUTO_INCREMENT,
  `tenant_code` varchar(64)  DEFAULT NULL,
  `description` varchar(255) DEFAULT NULL,
  `queue_id`    int(11)      DEFAULT NULL,
  `create_time` datetime     DEFAULT NULL,
  `update_time` datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `unique_tenant_code` (`tenant_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

INSERT IGNORE INTO `t_ds_tenant`
  (`id`, `tenant_code`, `description`, `queue_id`, `create_time`, `update_time`)
VALUES
  (-1, 'default', 'default tenant', 1, current_timestamp, current_timestamp);

CREATE TABLE `t_ds_project` (
  `id`          int(11)      NOT NULL AUTO_INCREMENT,
  `name`        varchar(255) DEFAULT NULL,
  `code`        bigint(20)   NOT NULL,
  `description` varchar(255) DEFAULT NULL,
  `user_id`     int(11)      DEFAULT NULL,
  `flag`        tinyint(4)   DEFAULT 1,
  `create_time` datetime     NOT NULL,
  `update_time` datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `user_id_index` (`user_id`) USING BTREE,
  UNIQUE KEY `unique_name` (`name`),
  UNIQUE KEY `unique_code` (`code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Workflow definitions (current version) and their version history.
CREATE TABLE `t_ds_workflow_definition` (
  `id`               int(11)      NOT NULL AUTO_INCREMENT,
  `code`             bigint(20)   NOT NULL,
  `name`             varchar(255) DEFAULT NULL,
  `version`          int(11)      NOT NULL DEFAULT 1,
  `description`      text,
  `project_code`     bigint(20)   NOT NULL,
  `release_state`    tinyint(4)   DEFAULT NULL,
  `user_id`          int(11)      DEFAULT NULL,
  `global_params`    text,
  `flag`             tinyint(4)   DEFAULT NULL,
  `locations`        text,
  `warning_group_id` int(11)      DEFAULT NULL,
  `timeout`          int(11)      DEFAULT 0,
  `execution_type`   tinyint(4)   DEFAULT 0,
  `create_time`      datetime     NOT NULL,
  `update_time`      datetime     NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `workflow_unique` (`name`, `project_code`) USING BTREE,
  UNIQUE KEY `uniq_workflow_definition_code` (`code`),
  KEY `idx_project_code` (`project_code`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `t_ds_workflow_definition_log` (
  `id`               int(11)      NOT NULL AUTO_INCREMENT,
  `code`             bigint(20)   NOT NULL,
  `name`             varchar(255) DEFAULT NULL,
  `version`          int(11)      NOT NULL DEFAULT 1,
  `description`      text,
  `project_code`     bigint(20)   NOT NULL,
  `release_state`    tinyint(4)   DEFAULT NULL,
  `user_id`          int(11)      DEFAULT NULL,
  `global_params`    text,
  `flag`             tinyint(4)   DEFAULT NULL,
  `locations`        text,
  `warning_group_id` int(11)      DEFAULT NULL,
  `timeout`          int(11)      DEFAULT 0,
  `execution_type`   tinyint(4)   DEFAULT 0,
  `operator`         int(11)      DEFAULT NULL,
  `operate_time`     datetime     DEFAULT NULL,
  `create_time`      datetime     NOT NULL,
  `update_time`      datetime     NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uniq_idx_code_version` (`code`, `version`) USING BTREE,
  KEY `idx_project_code` (`project_code`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Task definitions (current version) and their version history.
CREATE TABLE `t_ds_task_definition` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `code`                    bigint(20)   NOT NULL,
  `name`                    varchar(255) DEFAULT NULL,
  `version`                 int(11)      NOT NULL DEFAULT 1,
  `description`             text,
  `project_code`            bigint(20)   NOT NULL,
  `user_id`                 int(11)      DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_execute_type`       int(11)      DEFAULT 0,
  `task_params`             longtext,
  `flag`                    tinyint(2)   DEFAULT NULL,
  `task_priority`           tinyint(4)   DEFAULT 2,
  `worker_group`            varchar(255) DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `fail_retry_times`        int(11)      DEFAULT NULL,
  `fail_retry_interval`     int(11)      DEFAULT NULL,
  `timeout_flag`            tinyint(2)   DEFAULT 0,
  `timeout_notify_strategy` tinyint(4)   DEFAULT NULL,
  `timeout`                 int(11)      DEFAULT 0,
  `delay_time`              int(11)      DEFAULT 0,
  `resource_ids`            text,
  `task_group_id`           int(11)      DEFAULT NULL,
  `task_group_priority`     tinyint(4)   DEFAULT 0,
  `cpu_quota`               int(11)      NOT NULL DEFAULT -1,
  `memory_max`              int(11)      NOT NULL DEFAULT -1,
  `create_time`             datetime     NOT NULL,
  `update_time`             datetime     NOT NULL,
  PRIMARY KEY (`id`, `code`),
  KEY `idx_project_code` (`project_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `t_ds_task_definition_log` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `code`                    bigint(20)   NOT NULL,
  `name`                    varchar(255) DEFAULT NULL,
  `version`                 int(11)      NOT NULL DEFAULT 1,
  `description`             text,
  `project_code`            bigint(20)   NOT NULL,
  `user_id`                 int(11)      DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_execute_type`       int(11)      DEFAULT 0,
  `task_params`             longtext,
  `flag`                    tinyint(2)   DEFAULT NULL,
  `task_priority`           tinyint(4)   DEFAULT 2,
  `worker_group`            varchar(255) DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `fail_retry_times`        int(11)      DEFAULT NULL,
  `fail_retry_interval`     int(11)      DEFAULT NULL,
  `timeout_flag`            tinyint(2)   DEFAULT 0,
  `timeout_notify_strategy` tinyint(4)   DEFAULT NULL,
  `timeout`                 int(11)      DEFAULT 0,
  `delay_time`              int(11)      DEFAULT 0,
  `resource_ids`            text         DEFAULT NULL,
  `operator`                int(11)      DEFAULT NULL,
  `task_group_id`           int(11)      DEFAULT NULL,
  `task_group_priority`     tinyint(4)   DEFAULT 0,
  `operate_time`            datetime     DEFAULT NULL,
  `cpu_quota`               int(11)      NOT NULL DEFAULT -1,
  `memory_max`              int(11)      NOT NULL DEFAULT -1,
  `create_time`             datetime     NOT NULL,
  `update_time`             datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_code_version` (`code`, `version`),
  KEY `idx_project_code` (`project_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Edges of a workflow's DAG (pre_task_code 0 marks a root task), current and history.
CREATE TABLE `t_ds_workflow_task_relation` (
  `id`                          int(11)      NOT NULL AUTO_INCREMENT,
  `name`                        varchar(255) DEFAULT NULL,
  `project_code`                bigint(20)   NOT NULL,
  `workflow_definition_code`    bigint(20)   NOT NULL,
  `workflow_definition_version` int(11)      NOT NULL,
  `pre_task_code`               bigint(20)   NOT NULL,
  `pre_task_version`            int(11)      NOT NULL,
  `post_task_code`              bigint(20)   NOT NULL,
  `post_task_version`           int(11)      NOT NULL,
  `condition_type`              tinyint(2)   DEFAULT NULL,
  `condition_params`            text,
  `create_time`                 datetime     NOT NULL,
  `update_time`                 datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_code` (`project_code`, `workflow_definition_code`),
  KEY `idx_pre_task_code_version` (`pre_task_code`, `pre_task_version`),
  KEY `idx_post_task_code_version` (`post_task_code`, `post_task_version`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `t_ds_workflow_task_relation_log` (
  `id`                          int(11)      NOT NULL AUTO_INCREMENT,
  `name`                        varchar(255) DEFAULT NULL,
  `project_code`                bigint(20)   NOT NULL,
  `workflow_definition_code`    bigint(20)   NOT NULL,
  `workflow_definition_version` int(11)      NOT NULL,
  `pre_task_code`               bigint(20)   NOT NULL,
  `pre_task_version`            int(11)      NOT NULL,
  `post_task_code`              bigint(20)   NOT NULL,
  `post_task_version`           int(11)      NOT NULL,
  `condition_type`              tinyint(2)   DEFAULT NULL,
  `condition_params`            text,
  `operator`                    int(11)      DEFAULT NULL,
  `operate_time`                datetime     DEFAULT NULL,
  `create_time`                 datetime     NOT NULL,
  `update_time`                 datetime     NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_workflow_code_version` (`workflow_definition_code`, `workflow_definition_version`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Workflow runs.
CREATE TABLE `t_ds_workflow_instance` (
  `id`                          int(11)      NOT NULL AUTO_INCREMENT,
  `name`                        varchar(255) DEFAULT NULL,
  `workflow_definition_code`    bigint(20)   NOT NULL,
  `workflow_definition_version` int(11)      NOT NULL DEFAULT 1,
  `project_code`                bigint(20)   DEFAULT NULL,
  `state`                       tinyint(4)   DEFAULT NULL,
  `state_history`               text         DEFAULT NULL,
  `recovery`                    tinyint(4)   DEFAULT NULL,
  `start_time`                  datetime     DEFAULT NULL,
  `end_time`                    datetime     DEFAULT NULL,
  `run_times`                   int(11)      DEFAULT NULL,
  `host`                        varchar(135) DEFAULT NULL,
  `command_type`                tinyint(4)   DEFAULT NULL,
  `command_param`               text,
  `task_depend_type`            tinyint(4)   DEFAULT NULL,
  `max_try_times`               tinyint(4)   DEFAULT 0,
  `failure_strategy`            tinyint(4)   DEFAULT 0,
  `warning_type`                tinyint(4)   DEFAULT 0,
  `warning_group_id`            int(11)      DEFAULT NULL,
  `schedule_time`               datetime     DEFAULT NULL,
  `command_start_time`          datetime     DEFAULT NULL,
  `global_params`               text,
  `flag`                        tinyint(4)   DEFAULT 1,
  `update_time`                 timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  `is_sub_workflow`             int(11)      DEFAULT 0,
  `executor_id`                 int(11)      NOT NULL,
  `executor_name`               varchar(64)  DEFAULT NULL,
  `history_cmd`                 text,
  `workflow_instance_priority`  int(11)      DEFAULT 2,
  `worker_group`                varchar(255) DEFAULT NULL,
  `environment_code`            bigint(20)   DEFAULT -1,
  `timeout`                     int(11)      DEFAULT 0,
  `tenant_code`                 varchar(64)  DEFAULT 'default',
  `var_pool`                    longtext,
  `dry_run`                     tinyint(4)   DEFAULT 0,
  `next_workflow_instance_id`   int(11)      DEFAULT 0,
  `restart_time`                datetime     DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `workflow_instance_index` (`workflow_definition_code`, `id`) USING BTREE,
  KEY `start_time_index` (`start_time`, `end_time`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Task runs.
CREATE TABLE `t_ds_task_instance` (
  `id`                      int(11)      NOT NULL AUTO_INCREMENT,
  `name`                    varchar(255) DEFAULT NULL,
  `task_type`               varchar(50)  NOT NULL,
  `task_execute_type`       int(11)      DEFAULT 0,
  `task_code`               bigint(20)   NOT NULL,
  `task_definition_version` int(11)      NOT NULL DEFAULT 1,
  `workflow_instance_id`    int(11)      DEFAULT NULL,
  `workflow_instance_name`  varchar(255) DEFAULT NULL,
  `project_code`            bigint(20)   DEFAULT NULL,
  `state`                   tinyint(4)   DEFAULT NULL,
  `submit_time`             datetime     DEFAULT NULL,
  `start_time`              datetime     DEFAULT NULL,
  `end_time`                datetime     DEFAULT NULL,
  `host`                    varchar(135) DEFAULT NULL,
  `execute_path`            varchar(200) DEFAULT NULL,
  `log_path`                longtext     DEFAULT NULL,
  `alert_flag`              tinyint(4)   DEFAULT NULL,
  `retry_times`             int(4)       DEFAULT 0,
  `pid`                     int(4)       DEFAULT NULL,
  `app_link`                text,
  `task_params`             longtext,
  `flag`                    tinyint(4)   DEFAULT 1,
  `retry_interval`          int(4)       DEFAULT NULL,
  `max_retry_times`         int(2)       DEFAULT NULL,
  `task_instance_priority`  int(11)      DEFAULT NULL,
  `worker_group`            varchar(255) DEFAULT NULL,
  `environment_code`        bigint(20)   DEFAULT -1,
  `environment_config`      text,
  `executor_id`             int(11)      DEFAULT NULL,
  `executor_name`           varchar(64)  DEFAULT NULL,
  `first_submit_time`       datetime     DEFAULT NULL,
  `delay_time`              int(4)       DEFAULT 0,
  `var_pool`                longtext,
  `task_group_id`           int(11)      DEFAULT NULL,
  `dry_run`                 tinyint(4)   DEFAULT 0,
  `cpu_quota`               int(11)      NOT NULL DEFAULT -1,
  `memory_max`              int(11)      NOT NULL DEFAULT -1,
  PRIMARY KEY (`id`),
  KEY `workflow_instance_id` (`workflow_instance_id`) USING BTREE,
  KEY `idx_code_version` (`task_code`, `task_definition_version`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Cron schedules; since 3.3.2 at most one per workflow definition.
CREATE TABLE `t_ds_schedules` (
  `id`                         int(11)      NOT NULL AUTO_INCREMENT,
  `workflow_definition_code`   bigint(20)   NOT NULL,
  `start_time`                 datetime     NOT NULL,
  `end_time`                   datetime     NOT NULL,
  `timezone_id`                varchar(40)  DEFAULT NULL,
  `crontab`                    varchar(255) NOT NULL,
  `failure_strategy`           tinyint(4)   NOT NULL,
  `user_id`                    int(11)      NOT NULL,
  `release_state`              tinyint(4)   NOT NULL,
  `warning_type`               tinyint(4)   NOT NULL,
  `warning_group_id`           int(11)      DEFAULT NULL,
  `workflow_instance_priority` int(11)      DEFAULT 2,
  `worker_group`               varchar(255) DEFAULT '',
  `tenant_code`                varchar(64)  DEFAULT 'default',
  `environment_code`           bigint(20)   DEFAULT -1,
  `create_time`                datetime     NOT NULL,
  `update_time`                datetime     NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uniq_workflow_definition_code` (`workflow_definition_code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Queue the master polls for work (start, rerun, pause, stop, ...).
CREATE TABLE `t_ds_command` (
  `id`                          int(11)     NOT NULL AUTO_INCREMENT,
  `command_type`                tinyint(4)  DEFAULT NULL,
  `workflow_definition_code`    bigint(20)  NOT NULL,
  `workflow_definition_version` int(11)     DEFAULT 0,
  `workflow_instance_id`        int(11)     DEFAULT 0,
  `command_param`               text,
  `task_depend_type`            tinyint(4)  DEFAULT NULL,
  `failure_strategy`            tinyint(4)  DEFAULT 0,
  `warning_type`                tinyint(4)  DEFAULT 0,
  `warning_group_id`            int(11)     DEFAULT NULL,
  `schedule_time`               datetime    DEFAULT NULL,
  `start_time`                  datetime    DEFAULT NULL,
  `executor_id`                 int(11)     DEFAULT NULL,
  `update_time`                 datetime    DEFAULT NULL,
  `workflow_instance_priority`  int(11)     DEFAULT 2,
  `worker_group`                varchar(255),
  `tenant_code`                 varchar(64) DEFAULT 'default',
  `environment_code`            bigint(20)  DEFAULT -1,
  `dry_run`                     tinyint(4)  DEFAULT 0,
  PRIMARY KEY (`id`),
  KEY `priority_id_index` (`workflow_instance_priority`, `id`) USING BTREE
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Commands the master could not handle; id is copied from t_ds_command (no auto-increment).
CREATE TABLE `t_ds_error_command` (
  `id`                          int(11)     NOT NULL,
  `command_type`                tinyint(4)  DEFAULT NULL,
  `executor_id`                 int(11)     DEFAULT NULL,
  `workflow_definition_code`    bigint(20)  NOT NULL,
  `workflow_definition_version` int(11)     DEFAULT 0,
  `workflow_instance_id`        int(11)     DEFAULT 0,
  `command_param`               text,
  `task_depend_type`            tinyint(4)  DEFAULT NULL,
  `failure_strategy`            tinyint(4)  DEFAULT 0,
  `warning_type`                tinyint(4)  DEFAULT 0,
  `warning_group_id`            int(11)     DEFAULT NULL,
  `schedule_time`               datetime    DEFAULT NULL,
  `start_time`                  datetime    DEFAULT NULL,
  `update_time`                 datetime    DEFAULT NULL,
  `workflow_instance_priority`  int(11)     DEFAULT 2,
  `worker_group`                varchar(255),
  `tenant_code`                 varchar(64) DEFAULT 'default',
  `environment_code`            bigint(20)  DEFAULT -1,
  `message`                     text,
  `dry_run`                     tinyint(4)  DEFAULT 0,
  PRIMARY KEY (`id`) USING BTREE
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `t_ds_environment` (
  `id`          bigint(11)   NOT NULL AUTO_INCREMENT,
  `code`        bigint(20)   DEFAULT NULL,
  `name`        varchar(255) NOT NULL,
  `config`      text         NULL DEFAULT NULL,
  `description` text         NULL DEFAULT NULL,
  `operator`    int(11)      DEFAULT NULL,
  `create_time` timestamp    NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time` timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `environment_name_unique` (`name`),
  UNIQUE KEY `environment_code_unique` (`code`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `t_ds_environment_worker_group_relation` (
  `id`               bigint(11)   NOT NULL AUTO_INCREMENT,
  `environment_code` bigint(20)   NOT NULL,
  `worker_group`     varchar(255) NOT NULL,
  `operator`         int(11)      DEFAULT NULL,
  `create_time`      timestamp    NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time`      timestamp    NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `environment_worker_group_unique` (`environment_code`, `worker_group`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Worker groups created in the UI; the implicit 'default' group has no row.
CREATE TABLE `t_ds_worker_group` (
  `id`          bigint(11)   NOT NULL AUTO_INCREMENT,
  `name`        varchar(255) NOT NULL,
  `addr_list`   text         NULL DEFAULT NULL,
  `create_time` datetime     NULL DEFAULT NULL,
  `update_time` datetime     NULL DEFAULT NULL,
  `description` text         NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `name_unique` (`name`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- Alert groups; the 3.3 line creates only the admin group (3.2.x also had 'global alert group').
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
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

INSERT IGNORE INTO `t_ds_alertgroup`
  (`alert_instance_ids`, `create_user_id`, `group_name`, `description`, `create_time`, `update_time`)
VALUES
  (NULL, 1, 'default admin warning group', 'default admin warning group', current_timestamp, current_timestamp);

-- Which users may see which projects (besides owners and administrators).
CREATE TABLE `t_ds_relation_project_user` (
  `id`          int(11)  NOT NULL AUTO_INCREMENT,
  `user_id`     int(11)  NOT NULL,
  `project_id`  int(11)  DEFAULT NULL,
  `perm`        int(11)  DEFAULT 1,
  `create_time` datetime DEFAULT NULL,
  `update_time` datetime DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uniq_uid_pid` (`user_id`, `project_id`)
) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- ------------------------------------------------------------------------------------------
-- Quartz's own tables (its JDBC job store), as DolphinScheduler's DDL creates them.
--
-- Written for Hourglass from the same source as the tables above:
-- dolphinscheduler-dao/src/main/resources/sql/dolphinscheduler_mysql.sql on branch dev at
-- 7e0095dc (2024-10-18). There these tables are the same as in 3.2.2, and none of the upgrade
-- scripts 3.3.0_schema, 3.3.1_schema and 3.3.2_schema changes them.
-- DolphinScheduler's API server brings a schedule online by storing a Quartz job and its cron
-- trigger in these tables; Hourglass does the same. Quartz deletes from the other trigger
-- tables too when a job is removed, so every QRTZ_ table the file creates is here, with the
-- same upper-case table and column names, types, nullability, defaults, primary keys, indexes
-- and foreign keys (names included). The file creates QRTZ_JOB_DETAILS and QRTZ_TRIGGERS
-- first, then the others alphabetically; here they come in an order in which each foreign key
-- finds its table, which gives the same tables. The file inserts no rows into them (Quartz adds
-- its QRTZ_LOCKS rows itself the first time it takes a lock). Like the tables above, they have
-- DEFAULT CHARSET=utf8 COLLATE=utf8_bin.

-- A job: the class Quartz runs and, in JOB_DATA, its serialized JobDataMap (DolphinScheduler
-- 3.3 puts projectId and scheduleId in it). The IS_ flags and REQUESTS_RECOVERY are
-- varchar(1), holding '0' or '1'.
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
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

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
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- The cron expression and time zone of a trigger of type CRON.
CREATE TABLE `QRTZ_CRON_TRIGGERS` (
  `SCHED_NAME`      varchar(120) NOT NULL,
  `TRIGGER_NAME`    varchar(200) NOT NULL,
  `TRIGGER_GROUP`   varchar(200) NOT NULL,
  `CRON_EXPRESSION` varchar(120) NOT NULL,
  `TIME_ZONE_ID`    varchar(80)  DEFAULT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_CRON_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `QRTZ_SIMPLE_TRIGGERS` (
  `SCHED_NAME`      varchar(120) NOT NULL,
  `TRIGGER_NAME`    varchar(200) NOT NULL,
  `TRIGGER_GROUP`   varchar(200) NOT NULL,
  `REPEAT_COUNT`    bigint(7)    NOT NULL,
  `REPEAT_INTERVAL` bigint(12)   NOT NULL,
  `TIMES_TRIGGERED` bigint(10)   NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_SIMPLE_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

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
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- The file also gives this table a plain index named SCHED_NAME on its primary key columns.
CREATE TABLE `QRTZ_BLOB_TRIGGERS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `TRIGGER_NAME`  varchar(200) NOT NULL,
  `TRIGGER_GROUP` varchar(200) NOT NULL,
  `BLOB_DATA`     blob,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  KEY `SCHED_NAME` (`SCHED_NAME`,`TRIGGER_NAME`,`TRIGGER_GROUP`),
  CONSTRAINT `QRTZ_BLOB_TRIGGERS_ibfk_1` FOREIGN KEY (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`) REFERENCES `QRTZ_TRIGGERS` (`SCHED_NAME`, `TRIGGER_NAME`, `TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `QRTZ_CALENDARS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `CALENDAR_NAME` varchar(200) NOT NULL,
  `CALENDAR`      blob         NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`CALENDAR_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `QRTZ_PAUSED_TRIGGER_GRPS` (
  `SCHED_NAME`    varchar(120) NOT NULL,
  `TRIGGER_GROUP` varchar(200) NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`TRIGGER_GROUP`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

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
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

CREATE TABLE `QRTZ_SCHEDULER_STATE` (
  `SCHED_NAME`        varchar(120) NOT NULL,
  `INSTANCE_NAME`     varchar(200) NOT NULL,
  `LAST_CHECKIN_TIME` bigint(13)   NOT NULL,
  `CHECKIN_INTERVAL`  bigint(13)   NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`INSTANCE_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;

-- The row locks Quartz takes (SELECT ... FOR UPDATE) around changes to the job store.
CREATE TABLE `QRTZ_LOCKS` (
  `SCHED_NAME` varchar(120) NOT NULL,
  `LOCK_NAME`  varchar(40)  NOT NULL,
  PRIMARY KEY (`SCHED_NAME`,`LOCK_NAME`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_bin;
