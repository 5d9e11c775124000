#pragma once

// What Apache DolphinScheduler's API server writes to its metadata database for each console
// action, so that Hourglass can do the same by writing the database directly. Written from a
// reading of DolphinScheduler's published source (Apache-2.0); described here in our own words.
//
// Sources read
//   3.2.x: tag 3.2.2 (commit 212af27cb757), the newest 3.2 tag.
//   3.3.x: the newest 3.3 tag is 3.3.2 (commit 59e26c883cb6; 3.3.1 is a05d4d474dcb). That tag was
//     not available as a checkout here. The 3.3 notes were read from the dev branch at 7e0095dca1
//     (2024-10-18): it already has the workflow renames and the 3.3 API/master split. They were
//     cross-checked against later stored versions of the same files (master triggers and API
//     delegates unchanged), against a third-party extraction of the 3.3.1/3.3.2 tag enums, and
//     against upstream issues/PRs. Points that may differ at 3.3.2 are marked "(3.3.2: ...)".
//
// Naming per version
//   3.2: t_ds_process_definition, t_ds_process_instance, t_ds_command.process_definition_code,
//        process_definition_version, process_instance_id, process_instance_priority,
//        t_ds_schedules.process_definition_code, t_ds_process_instance.is_sub_process.
//   3.3: t_ds_workflow_definition, t_ds_workflow_instance, t_ds_command.workflow_definition_code,
//        workflow_definition_version, workflow_instance_id, workflow_instance_priority,
//        t_ds_schedules.workflow_definition_code, t_ds_workflow_instance.is_sub_workflow.
//   Do not tell 3.2.2 from 3.3 by t_ds_version: stock 3.2.2's install script stores '3.3.0'
//   there. Tell them apart by which instance table exists.
//
// General storage rules (both versions)
//   - Every enum below is stored as its integer code (MyBatis-Plus @EnumValue on the code).
//   - Rows are inserted through MyBatis-Plus, which leaves out null fields, so the column
//     defaults apply to them (t_ds_command: warning_type 0, priority 2, tenant_code 'default',
//     environment_code -1, workflow/process_instance_id 0, definition_version 0). Primitive
//     fields are always written (executor_id, dry_run, test_flag, instance id, version).
//   - A t_ds_command built with the no-argument constructor (3.2 ExecutorServiceImpl) gets
//     task_depend_type 2, failure_strategy 1, start_time now, update_time now. One built with the
//     entity's builder (3.2 ExecuteFunctions, 3.3 master triggers) gets task_depend_type 2,
//     failure_strategy 1, update_time now, but start_time NULL and executor_id 0 unless set.
//   - Date-times in JSON are "yyyy-MM-dd HH:mm:ss" in the server's default time zone.
//   - PostgreSQL ids come from sequences t_ds_command_id_sequence and
//     t_ds_process_instance_id_sequence / t_ds_workflow_instance_id_sequence (column defaults);
//     MySQL uses AUTO_INCREMENT.
//   - With api audit-enable=true the controllers also add a t_ds_audit_log row (off by default;
//     the scheduler does not need it).
//
// ---------------------------------------------------------------------------------------------
// START a workflow definition
//   3.2.2  ExecutorController::startProcessInstance -> ExecutorServiceImpl::execProcessInstance
//          -> createCommand -> CommandServiceImpl::createCommand.
//     Writes ONE t_ds_command row, nothing else about the run:
//       command_type 0 (START_PROCESS; also used when execType is omitted),
//       process_definition_code = code, process_definition_version = the CURRENT version in
//         t_ds_process_definition (even when the request named another version),
//       process_instance_id 0 (the master creates the instance when it takes the command),
//       command_param = JSON object of strings: StartNodeList "code1,code2" if start nodes were
//         given; StartParams = a JSON *string* holding a flat object {"name":"value",...} if
//         start params were given; plus schedule_timezone = t_ds_schedules.timezone_id when the
//         definition has any schedule row (online or not). "{}" when none apply.
//       executor_id = user id, failure_strategy, warning_type, warning_group_id (may be null),
//       task_depend_type (2 if omitted), process_instance_priority (null -> default 2),
//       worker_group (API default "default"), tenant_code (API default "default"),
//       environment_code (API default -1), dry_run 0/1, test_flag 0/1, schedule_time NULL,
//       start_time now, update_time now.
//     Also: a t_ds_trigger_relation row (trigger_type 2 = COMMAND, trigger_code = a generated
//     code returned to the caller, job_id = command id); and when warning_group_id is given it
//     is copied onto t_ds_process_definition.warning_group_id. Transactional.
//     Refuses (ServiceException / Status): project permission; timeout outside 1..86400
//     (TASK_TIMEOUT_PARAMS_ERROR 10002; the timeout is not stored anywhere); expected
//     parallelism <= 0 (TASK_PARALLELISM_PARAMS_ERROR 50080); tenant other than "default" not in
//     t_ds_tenant (TENANT_NOT_EXIST 10017 "tenant [x] not exists"); definition of another project
//     (PROCESS_DEFINE_NOT_EXIST 50003); definition not ONLINE (PROCESS_DEFINE_NOT_RELEASE 50004
//     "process definition {code} process version {v} not online"); any sub-process definition
//     OFFLINE (SUB_PROCESS_DEFINE_NOT_RELEASE 50004 "exist sub process definition not online");
//     a start node code absent from that version's relations (START_NODE_NOT_EXIST_IN_LAST_PROCESS
//     10207); no master registered (MASTER_NOT_EXISTS 10025 "master does not exist").
//   3.3    ExecutorController::triggerWorkflowDefinition (start-workflow-instance, execType
//          START_PROCESS) -> ExecutorServiceImpl::triggerWorkflowDefinition ->
//          TriggerWorkflowRequestTransformer / TriggerWorkflowDTOValidator ->
//          TriggerWorkflowExecutorDelegate::execute -> RPC IWorkflowControlClient
//          .manualTriggerWorkflow to a random registered master -> (master)
//          WorkflowManualTrigger via AbstractWorkflowTrigger::triggerWorkflow.
//     The API server writes NOTHING itself. The master, in one transaction, INSERTS a
//     t_ds_workflow_instance row and then a t_ds_command row pointing at it. A console writing
//     the database must do both (a 3.3 master looks the instance up by the command's
//     workflow_instance_id; a 3.2-style command with id 0 will not run).
//       t_ds_workflow_instance: workflow_definition_code, workflow_definition_version (the
//         definition's current version), project_code, command_type 0, state 0
//         (SUBMITTED_SUCCESS), state_history = JSON list [{"time":..,"state":"SUBMITTED_SUCCESS",
//         "desc":"START_PROCESS"}], recovery 0, start_time = restart_time = now, run_times 1,
//         name "<definition name>-<yyyyMMddHHmmssSSS>", task_depend_type, failure_strategy,
//         warning_type (NONE 0 if null), warning_group_id, executor_id, executor_name (user
//         name), tenant_code, is_sub_workflow 0, history_cmd "START_PROCESS",
//         workflow_instance_priority, worker_group ("default" if empty), environment_code (-1 if
//         null), timeout = definition timeout, dry_run, test_flag. host, command_param,
//         global_params, schedule_time stay NULL until the master takes the command.
//       t_ds_command: command_type 0, workflow_definition_code, workflow_definition_version,
//         workflow_instance_id = new instance id, workflow_instance_priority, command_param =
//         {"commandType":"START_PROCESS","subWorkflowInstance":false,"startNodes":[codes...],
//          "commandParams":[{"prop":..,"direct":"IN","type":"VARCHAR","value":..}],
//          "timeZone":"<master default zone id>"}. The other columns are left at builder or
//         column defaults (executor_id 0, start_time NULL, failure_strategy 1, ...): 3.3 reads
//         run settings from the instance row, not the command.
//     Nothing is written to the definition row and there is no t_ds_trigger_relation (the 3.3.0
//     upgrade drops that table). No timeout and no version request parameters in 3.3.
//     Refuses: "Cannot find the workflow: <code>"; execType not START_PROCESS; "no master server
//     available"; master side "Workflow definition not found: <code> version <v>" / "User not
//     found". The dev snapshot does not check the release state; PR #17008 ("Fix workflow is
//     offline can be trigger", merged 2025-02, before 3.3.0-alpha) adds that refusal, so treat
//     an OFFLINE definition as refused in 3.3.x (clients see code 50014 with a message about
//     the workflow definition having to be online; exact source line not read).
//
// ---------------------------------------------------------------------------------------------
// COMPLEMENT (backfill) a date range
//   Request: scheduleTime is JSON, either {"complementStartDate":"..","complementEndDate":".."}
//   (inclusive range) or {"complementScheduleDateList":"d1,d2,..."} (explicit list; wins if both
//   are given). A range is expanded with the cron of the definition's ONLINE schedules
//   (release_state 1, all of them); with no online schedule a daily midnight cron
//   "0 0 0 * * ? *" is used, so a missing schedule is NOT refused. start == end gives that one
//   date. Duplicate dates in a list are dropped.
//   3.2.2  ExecutorServiceImpl::execProcessInstance (execType COMPLEMENT_DATA) -> createCommand
//          -> createComplementCommandList -> createComplementCommand.
//     Same t_ds_command columns as START but command_type 5; the range keys are NOT stored:
//     command_param gets complementScheduleDateList = the expanded dates joined by "," (plus
//     StartNodeList / StartParams / schedule_timezone as for START). schedule_time stays NULL.
//     Order: executionOrder DESC_ORDER (0, also the default when omitted) sorts newest first,
//     ASC_ORDER (1) oldest first.
//     Serial (run mode 0, default): ONE command with all dates.
//     Parallel (run mode 1): n = number of dates, capped by expectedParallelismNumber when that
//     is given and non-zero; the sorted dates are dealt round-robin into n lists (date i goes to
//     list i mod n) and ONE command is inserted per list, each with its own
//     complementScheduleDateList. One trigger-relation row per command.
//     ComplementDependentMode ALL_DEPENDENT (1), only when the definition has an online schedule:
//     after each command, extra commands (same columns, task_depend_type 2) are inserted for
//     downstream definitions whose DEPENDENT tasks watch this definition with the same cycle as
//     the first schedule's cron; their StartNodeList is the dependent task code, worker_group
//     theirs (or the request's). allLevelDependent repeats this down every level.
//     Refuses (besides START's checks): more than 100 dates in a list (SCHEDULE_TIME_NUMBER_EXCEED
//     1400003 "The number of complement dates exceed 100."); missing/unparsable scheduleTime or
//     start after end (START_PROCESS_INSTANCE_ERROR 50014 "start process instance error"); an
//     empty expansion (TASK_COMPLEMENT_DATA_DATE_ERROR 50081 "The range of date for
//     complementing date is not valid").
//   3.3    ExecutorController::triggerWorkflowDefinition (execType COMPLEMENT_DATA) ->
//          ExecutorServiceImpl::backfillWorkflowDefinition -> BackfillWorkflowRequestTransformer
//          (expands dates) / BackfillWorkflowDTOValidator -> BackfillWorkflowExecutorDelegate
//          ::execute -> RPC backfillTriggerWorkflow -> (master) WorkflowBackfillTrigger.
//     Per "chunk" of dates the master inserts one t_ds_workflow_instance row (as for START but
//     command_type 5, state_history desc "COMPLEMENT_DATA", history_cmd "COMPLEMENT_DATA",
//     schedule_time = FIRST date of the chunk) and one t_ds_command row (command_type 5,
//     command_param {"commandType":"COMPLEMENT_DATA", ...same keys as START...,
//     "backfillTimeList":["yyyy-MM-dd HH:mm:ss",...]}). The chunk is run one date at a time: when
//     an instance succeeds, WorkflowSuccessLifecycleListener removes its schedule_time from the
//     list and triggers the next date as a NEW instance + command the same way.
//     Serial (run mode 0): one chunk with all dates, sorted DESCENDING only when executionOrder
//     is DESC_ORDER; ascending otherwise (the omitted default differs from 3.2!).
//     Parallel (any run mode other than 0, including omitted): the date list, unsorted (in the
//     order expanded or given), is cut into consecutive chunks of SIZE k = min(dates,
//     expectedParallelismNumber) — so expectedParallelismNumber is a chunk size, not a count
//     (10 dates, 3 -> 4 instances of 3,3,3,1). Upstream issue #17831 confirms this on 3.3.2; it
//     was changed to "k chunks" only after 3.3.x (PR #17853, 2026).
//     ALL_DEPENDENT is accepted but does nothing in 3.3.x (a todo; done by DSIP-95 in 2026).
//     Refuses: "Parse backfillTime: .. error", "backfillTime: .. is invalid", "backfillDateList is
//     empty", "expectedParallelismNumber should >= 0" (a null value fails with a
//     NullPointerException in the dev snapshot; the UI form defaults it to 2; 0 fails in the
//     partitioning), "no master server available", "Cannot find the workflow: <code>" (whether
//     #17008's online check also covers backfill was not verified). The 3.2 100-date limit is gone.
//
// ---------------------------------------------------------------------------------------------
// Actions on an instance: ExecutorController::execute (3.2.2, /executors/execute with
// executeType) -> ExecutorServiceImpl::execute -> ExecuteClient::executeWorkflowInstance ->
// one ExecuteFunction per ExecuteType. 3.3: ExecutorServiceImpl::controlWorkflowInstance ->
// ExecutorClient -> one *ExecutorDelegate per action.
//   Shared refusals 3.2.2: MASTER_NOT_EXISTS (checked first), PROCESS_INSTANCE_NOT_EXIST 50001
//   "process instance {id} does not exist", instance of another project, definition version
//   missing. 3.3: WORKFLOW_INSTANCE_NOT_EXIST 50001 "workflow instance {id} does not exist".
//   3.2.2 prints states as "WorkflowExecutionStatus{code=5, desc='stop'}", 3.3 as "STOP".
//
// 2.0.x (and 3.0, which kept it)  ExecutorServiceImpl::execute: for every act but stop and
//   pause, checkProcessDefinitionValid on the instance's definition at its version (read by
//   ProcessService::findProcessDefinition, from the log when it is not the current version):
//   PROCESS_DEFINE_NOT_RELEASE 50004 "process definition {code} not on line"; then
//   checkExecuteType (see ExecutionStatus20). Rerun, rerun from failed tasks and resume all go
//   through insertCommand: ONE t_ds_command with command_type 7, 4 or 3, the definition's
//   code/version, process_instance_id = id, executor_id = the user (always), command_param
//   {"ProcessInstanceId":id} (a number; plus "StartParams" copied from the instance on a rerun),
//   the rest as the no-argument Command() leaves it (task_depend_type 2, failure_strategy 1,
//   start/update time now). No schedule_timezone, no priority. Before inserting,
//   ProcessService::verifyIsNeedCreateCommand refuses when any command of type 3, 4 or 7 for the
//   same ProcessInstanceId is already in t_ds_command: PROCESS_INSTANCE_EXECUTING_COMMAND 50009
//   "process instance {definition code} is executing the command, please wait ..." (it names
//   the definition's code, not the instance). 3.2.2's ExecuteFunctions and 3.3's master triggers
//   do not call verifyIsNeedCreateCommand (3.2.2 only for EXECUTE_TASK, a type it never
//   matches), so they queue a second command.
//
// RERUN (repeat running)
//   3.2.2  RepeatRunningExecuteFunction::execute. Allowed states: SUCCESS 7, FAILURE 6, STOP 5,
//     PAUSE 3, BLOCK 16; else "The workflow instance: <name> status is <s>, cannot repeat running".
//     Inserts ONE t_ds_command: command_type 7, process_definition_code/version and
//     process_instance_priority/test_flag copied from the instance, process_instance_id = id,
//     command_param {"ProcessInstanceId":id} plus "StartParams" copied from the instance's
//     command_param when present (and schedule_timezone as above). executor_id is NOT set (0).
//     The instance row is not touched by the API.
//   3.3    RepeatRunningWorkflowInstanceExecutorDelegate -> RPC repeatTriggerWorkflowInstance ->
//     (master) WorkflowInstanceRepeatTrigger. Allowed: SUCCESS 7, FAILURE 6, STOP 5, PAUSE 3.
//     Inserts ONE t_ds_command: command_type 7, workflow_instance_id, code/version from the
//     instance, executor_id = user, start_time/update_time now, command_param NULL. The instance
//     row is rewritten unchanged; the master resets it (state 1, run_times+1) when it takes the
//     command (ReRunWorkflowCommandHandler).
//
// RERUN FROM FAILED TASKS (start failure task process)
//   3.2.2  FailureRecoveryExecuteFunction::execute. Allowed: FAILURE 6 only, else "The workflow
//     instance: <name> status is <s>, can not be recovered". Inserts ONE t_ds_command:
//     command_type 4, process_definition_code/version, process_instance_id = id, executor_id =
//     user, test_flag from instance, command_param NULL (or {"schedule_timezone":..} when the
//     definition has a schedule). Instance row not touched.
//   3.3    RecoverFailureTaskInstanceExecutorDelegate -> RPC triggerFromFailureTasks -> (master)
//     WorkflowInstanceRecoverFailureTaskTrigger. Allowed: FAILURE 6 only (same message). UPDATES
//     the instance: state 0 (state_history desc "START_FAILURE_TASK_PROCESS"), run_times + 1,
//     restart_time now, end_time NULL; INSERTS t_ds_command: command_type 4,
//     workflow_definition_code/version, workflow_instance_id, executor_id = user,
//     start_time/update_time now, command_param NULL.
//
// STOP
//   3.2.2  StopExecuteFunction::execute. A STATE CHANGE, no command row. Allowed:
//     RUNNING_EXECUTION 1, READY_PAUSE 2 (READY_STOP 4 refused): "The workflow instance: <name>
//     status is <s>, can not be stopped". Updates the instance row: state 4 (READY_STOP),
//     command_type 9, history_cmd += ",STOP", state_history += desc "stop a process by user";
//     then RPC ITaskInstanceExecutionEventListener::onWorkflowInstanceInstanceStateChange to the
//     master in the instance's host column, which re-reads the row and kills the tasks; the
//     master writes STOP 5 (or SUCCESS 7) at the end. Not transactional: if the RPC fails the
//     row stays READY_STOP. A DB-only write is not picked up until the master gets an event.
//   3.3    StopWorkflowInstanceExecutorDelegate. Allowed: RUNNING 1, READY_PAUSE 2, READY_STOP 4,
//     SERIAL_WAIT 14 (dev snapshot also WAIT_TO_RUN 17); else "... status is <s>, can not stop".
//     SERIAL_WAIT (and WAIT_TO_RUN) instances are stopped IN THE DATABASE only:
//     UPDATE ... SET state = 5 WHERE id = ? AND state = <old> (no history, no command).
//     Any other allowed state: RPC stopWorkflowInstance to the instance's host master, which
//     moves it to READY_STOP 4 and later STOP 5. No DB write by the API.
//
// PAUSE
//   3.2.2  PauseExecuteFunction::execute. A STATE CHANGE, no command row. Allowed:
//     RUNNING_EXECUTION 1 only; else "The workflow instance: <name> status is <s>, can not
//     pause". Updates the row: state 2 (READY_PAUSE), command_type 8, history_cmd += ",PAUSE",
//     state_history += desc "pause a process by <user name>"; then the same RPC as stop. The
//     master ends in PAUSE 3.
//   3.3    PauseWorkflowInstanceExecutorDelegate. Allowed: RUNNING 1, READY_PAUSE 2,
//     SERIAL_WAIT 14; else "... status is <s>, can not pause". SERIAL_WAIT (dev: also
//     WAIT_TO_RUN) -> conditional UPDATE state = 3 in the database; otherwise RPC
//     pauseWorkflowInstance to the host master (READY_PAUSE 2, then PAUSE 3).
//
// RESUME a paused (or stopped) instance: recover suspended
//   3.2.2  RecoverExecuteFunction::execute. Allowed: PAUSE 3 or STOP 5, else "The workflow
//     instance: <name> state is <s>, cannot recovery". Inserts ONE t_ds_command: command_type 3,
//     process_definition_code/version, process_instance_id = id, executor_id = user, test_flag
//     from instance, command_param {"ProcessInstanceId":id} (a JSON number; it becomes the
//     string "id" when schedule_timezone is merged in). Instance row not touched.
//   3.3    RecoverSuspendedWorkflowInstanceExecutorDelegate -> RPC triggerFromSuspendTasks ->
//     (master) WorkflowInstanceRecoverSuspendTaskTrigger. Allowed: PAUSE 3 or STOP 5 (same
//     message). UPDATES the instance exactly as for failed tasks (state 0 — its history desc
//     reads "START_FAILURE_TASK_PROCESS" — run_times + 1, restart_time now, end_time NULL) and
//     INSERTS t_ds_command command_type 3 with workflow_instance_id, code/version, executor_id,
//     start_time/update_time now, command_param NULL.
//
// ---------------------------------------------------------------------------------------------
// DEFINITION online / offline (same logic in both; 3.2.2 ProcessDefinitionServiceImpl, 3.3
// WorkflowDefinitionServiceImpl; ::onlineWorkflowDefinition / ::offlineWorkflowDefinition).
//   Online: no-op when already 1. Refuses a definition with no task relations (PROCESS_DAG_IS_EMPTY
//   / WORKFLOW_DAG_IS_EMPTY 50035 "... dag is empty") and any sub-workflow definition not online
//   ("SubWorkflowDefinition <name> is not online"). Writes release_state = 1 on the definition row
//   (updateById: other columns rewritten unchanged; update_time not touched; the _log table is
//   not touched). Does not bring the schedule online.
//   Offline: no-op when already 0. Writes release_state = 0, then takes the definition's schedule
//   offline as below. No check on running instances.
//
// SCHEDULE online / offline (SchedulerServiceImpl::onlineScheduler / offlineScheduler, also
// ...ByWorkflowCode; same in both versions apart from column names).
//   Online: no-op when already 1. Refuses when the definition is not online
//   (PROCESS_DEFINE_NOT_RELEASE / WORKFLOW_DEFINITION_NOT_RELEASE 50004). Writes
//   t_ds_schedules.release_state = 1, then registers a Quartz job through the Quartz API
//   (QuartzScheduler::insertOrUpdateScheduleTask) in the QRTZ_* tables (scheduler name
//   "DolphinScheduler"): job and trigger name "job_<schedule id>", group "jobgroup_<project
//   id>" (numeric t_ds_project.id, not the code), job class ProcessScheduleTask, job data
//   {projectId, scheduleId} stored as a serialized Java map (useProperties=false), cron =
//   schedule crontab in the schedule's timezone_id, start = later of now and start_time, end =
//   end_time, misfire instruction "ignore misfires". Replaces an existing job.
//   Offline: no-op when already 0. Writes release_state = 0 and deletes that Quartz job.
//   Note: at every fire the job re-reads t_ds_schedules and deletes itself when the row is
//   gone or offline, and skips (creates nothing) when the definition is offline. So a DB-only
//   offline is honoured at the next fire; a DB-only online is NOT (no Quartz rows).
//   At a fire, 3.2 inserts a t_ds_command type 6 (SCHEDULER) with schedule_time = the fire time
//   and the schedule's settings; 3.3 asks a master, which inserts an instance (state 0,
//   schedule_time set) and a command type 6 with {"commandType":"SCHEDULER",..,"timeZone":
//   schedule timezone}.

namespace hg::dolphinscheduler {

// t_ds_command.command_type, t_ds_*_instance.command_type, and the names in history_cmd.
// 3.2.2 and 3.3 share the codes; RecoverWaitingThread (10) exists only in 3.2.
enum class CommandType : int {
    StartProcess = 0,
    StartCurrentTaskProcess = 1,
    RecoverToleranceFaultProcess = 2,
    RecoverSuspendedProcess = 3, // resume a paused/stopped instance
    StartFailureTaskProcess = 4, // rerun from the failed tasks
    ComplementData = 5,          // backfill
    Scheduler = 6,               // written at a Quartz fire
    RepeatRunning = 7,           // rerun
    Pause = 8,                   // 3.2: written into the instance's command_type, never a command
    Stop = 9,                    // likewise
    RecoverWaitingThread = 10,   // 3.2 only
    RecoverSerialWait = 11,
    ExecuteTask = 12,
    DynamicGeneration = 13,
};

// The Java enum names as they appear in history_cmd, state_history descriptions and the 3.3
// command_param "commandType" discriminator.
inline constexpr char kCommandStartProcess[] = "START_PROCESS";
inline constexpr char kCommandComplementData[] = "COMPLEMENT_DATA";
inline constexpr char kCommandScheduler[] = "SCHEDULER";
inline constexpr char kCommandRepeatRunning[] = "REPEAT_RUNNING";
inline constexpr char kCommandStartFailureTaskProcess[] = "START_FAILURE_TASK_PROCESS";
inline constexpr char kCommandRecoverSuspendedProcess[] = "RECOVER_SUSPENDED_PROCESS";
inline constexpr char kCommandPause[] = "PAUSE";
inline constexpr char kCommandStop[] = "STOP";
// 3.3 command_param discriminator for failover commands (not the enum name).
inline constexpr char kCommandParamFailoverType[] = "RECOVER_TOLERANCE_FAULT";

// t_ds_process_instance.state in 2.0.x and 3.0 (Java ExecutionStatus, shared with task
// instances). 2.0.9's ExecutorServiceImpl.checkExecuteType allows an act by the state's own
// helpers: pause and stop typeIsRunning (1, 11, 12); rerun typeIsFinished (typeIsSuccess 7, 13,
// typeIsFailure 6, 8, typeIsCancel 3, 5, 9); rerun from failed tasks typeIsFailure (6, 8);
// resume typeIsCancel (3, 5, 9). Otherwise PROCESS_INSTANCE_STATE_OPERATION_ERROR 50006 "the
// status of process instance {name} is {STATE},Cannot perform {EXECUTE_TYPE} operation".
enum class ExecutionStatus20 : int {
    SubmittedSuccess = 0,
    RunningExecution = 1,
    ReadyPause = 2,
    Pause = 3,
    ReadyStop = 4,
    Stop = 5,
    Failure = 6,
    Success = 7,
    NeedFaultTolerance = 8,
    Kill = 9,
    WaitingThread = 10,
    WaitingDepend = 11,
    DelayExecution = 12,
    ForcedSuccess = 13,
};

// t_ds_process_instance.state in 3.2.2 (Java WorkflowExecutionStatus; the codes are not
// consecutive because they were split from the older ExecutionStatus).
// API checks: pause needs 1; stop needs 1 or 2; rerun needs 3, 5, 6, 7 or 16; rerun from failed
// tasks needs 6; resume needs 3 or 5.
enum class WorkflowExecutionStatus32 : int {
    SubmittedSuccess = 0,
    RunningExecution = 1,
    ReadyPause = 2,
    Pause = 3,
    ReadyStop = 4,
    Stop = 5,
    Failure = 6,
    Success = 7,
    DelayExecution = 12,
    SerialWait = 14,
    ReadyBlock = 15,
    Block = 16,
    WaitToRun = 17,
};

// t_ds_workflow_instance.state in 3.3.x. 3.3.1/3.3.2 have exactly these; the dev snapshot of
// 2024-10 still had WaitToRun = 17 (stoppable/pausable directly in the DB); it is gone by 3.3.1.
// API checks: pause needs 1, 2 or 14 (14 -> direct DB update to 3); stop needs 1, 2, 4 or 14
// (14 -> direct DB update to 5); rerun needs 3, 5, 6 or 7; rerun from failed tasks needs 6;
// resume needs 3 or 5. A freshly triggered instance (0) can be neither paused nor stopped.
enum class WorkflowExecutionStatus33 : int {
    SubmittedSuccess = 0,
    RunningExecution = 1,
    ReadyPause = 2,
    Pause = 3,
    ReadyStop = 4,
    Stop = 5,
    Failure = 6,
    Success = 7,
    SerialWait = 14,
    Failover = 18,
};

// t_ds_task_instance.state (Java TaskExecutionStatus), 3.2.2; 3.3 has the same codes without
// Stop (5).
enum class TaskExecutionStatus : int {
    SubmittedSuccess = 0,
    RunningExecution = 1,
    Pause = 3,
    Stop = 5,
    Failure = 6,
    Success = 7,
    NeedFaultTolerance = 8,
    Kill = 9,
    DelayExecution = 12,
    ForcedSuccess = 13,
    Dispatch = 17,
};

// failure_strategy (command, instance, schedule). Same in both versions.
enum class FailureStrategy : int {
    End = 0,
    Continue = 1, // the command entity's default
};

// warning_type. Global (4) exists only in 3.2.
enum class WarningType : int {
    None = 0,
    Success = 1,
    Failure = 2,
    All = 3,
    Global = 4, // 3.2 only
};

// release_state of definitions (t_ds_process_definition / t_ds_workflow_definition) and of
// t_ds_schedules. Same in both versions.
enum class ReleaseState : int {
    Offline = 0,
    Online = 1,
};

// process_instance_priority / workflow_instance_priority. Column default 2 (Medium).
enum class Priority : int {
    Highest = 0,
    High = 1,
    Medium = 2,
    Low = 3,
    Lowest = 4,
};

// task_depend_type: which tasks around the start nodes run. Default 2.
enum class TaskDependType : int {
    TaskOnly = 0,
    TaskPre = 1,
    TaskPost = 2,
};

// Complement run mode (request parameter only; not stored). 3.2: omitted = serial.
// 3.3: anything but serial (including omitted) takes the parallel path.
enum class RunMode : int {
    Serial = 0,
    Parallel = 1,
};

// Complement dependent mode (request parameter only). 3.2: AllDependent adds commands for
// downstream definitions. 3.3.x: accepted, no effect.
enum class ComplementDependentMode : int {
    OffMode = 0,
    AllDependent = 1,
};

// Complement date order (request parameter only). 3.2: omitted = DescOrder.
// 3.3: only DescOrder sorts descending (serial only); omitted = ascending.
enum class ExecutionOrder : int {
    DescOrder = 0,
    AscOrder = 1,
};

// dry_run, test_flag, recovery, is_sub_process / is_sub_workflow, flag.
enum class Flag : int {
    No = 0,
    Yes = 1,
};

// The API's executeType parameter for /executors/execute (not stored). Same in both versions.
enum class ExecuteType : int {
    None = 0,
    RepeatRunning = 1,
    RecoverSuspendedProcess = 2,
    StartFailureTaskProcess = 3,
    Stop = 4,
    Pause = 5,
    ExecuteTask = 6,
};

// t_ds_trigger_relation.trigger_type (3.2 only; the table is dropped by the 3.3.0 upgrade).
// The API writes Command (2) with job_id = t_ds_command.id for every start/complement command.
enum class ApiTriggerType : int {
    Process = 0,
    Task = 1,
    Command = 2,
};

// --- 3.2 command_param keys (a flat JSON object whose values are strings) -------------------
// Written by the API:
inline constexpr char kCmdStartNodeList[] = "StartNodeList";        // "code1,code2"
inline constexpr char kCmdStartParams[] = "StartParams";            // JSON string of {"k":"v"}
inline constexpr char kCmdRecoverProcessId[] = "ProcessInstanceId"; // rerun, resume
inline constexpr char kCmdComplementScheduleDateList[] = "complementScheduleDateList"; // "d1,d2"
inline constexpr char kCmdScheduleTimezone[] = "schedule_timezone"; // added when a schedule exists
// Keys of the API's scheduleTime request JSON (both versions); the range keys are expanded by
// the API and never stored in a command:
inline constexpr char kCmdComplementStartDate[] = "complementStartDate";
inline constexpr char kCmdComplementEndDate[] = "complementEndDate";
// Written by the master (or by sub-workflow tasks), listed so a reader recognises them:
inline constexpr char kCmdRecoveryStartNodeIdList[] = "StartNodeIdList";
inline constexpr char kCmdFatherParams[] = "fatherParams";
inline constexpr char kCmdSubProcessInstanceId[] = "processInstanceId";
inline constexpr char kCmdSubProcessParentInstanceId[] = "parentProcessInstanceId";
inline constexpr char kCmdSubProcessDefinitionCode[] = "processDefinitionCode"; // in task params

// --- 3.3 command_param keys (typed JSON; "commandType" selects the shape) -------------------
inline constexpr char kParamCommandType[] = "commandType";                 // e.g. "START_PROCESS"
inline constexpr char kParamSubWorkflowInstance[] = "subWorkflowInstance"; // false for consoles
inline constexpr char kParamStartNodes[] = "startNodes";       // JSON array of task codes
inline constexpr char kParamCommandParams[] = "commandParams"; // JSON array of properties
inline constexpr char kParamTimeZone[] = "timeZone";           // zone id, e.g. "Asia/Shanghai"
inline constexpr char kParamBackfillTimeList[] = "backfillTimeList"; // COMPLEMENT_DATA only
// One element of commandParams (a task-API Property); start params use direct IN, type VARCHAR.
inline constexpr char kPropertyProp[] = "prop";
inline constexpr char kPropertyDirect[] = "direct";
inline constexpr char kPropertyType[] = "type";
inline constexpr char kPropertyValue[] = "value";
inline constexpr char kPropertyDirectIn[] = "IN";
inline constexpr char kPropertyTypeVarchar[] = "VARCHAR";

// state_history: a JSON list of {"time": date-time, "state": status NAME, "desc": text}.
inline constexpr char kStateHistoryTime[] = "time";
inline constexpr char kStateHistoryState[] = "state";
inline constexpr char kStateHistoryDesc[] = "desc";
// 3.2.2 descriptions written by the API: stop "stop a process by user"; pause "pause a process
// by " followed by the user name.
inline constexpr char kStateDescStop32[] = "stop a process by user";
inline constexpr char kStateDescPausePrefix32[] = "pause a process by ";

// Formats (Java patterns; the same letters work with QDateTime::toString except SSS -> zzz).
inline constexpr char kDateTimeFormat[] = "yyyy-MM-dd HH:mm:ss";
inline constexpr char kInstanceNameStampFormatQt[] = "yyyyMMddHHmmsszzz"; // 3.3 "<name>-<stamp>"

// Defaults and limits.
inline constexpr char kDefaultWorkerGroup[] = "default";
inline constexpr char kDefaultTenantCode[] = "default";
inline constexpr long long kDefaultEnvironmentCode = -1;
inline constexpr char kDefaultComplementCron[] = "0 0 0 * * ? *"; // used without an online schedule
inline constexpr int kMaxComplementDateList32 = 100;              // 3.2 only
inline constexpr int kMaxTimeoutSeconds32 = 24 * 3600;            // 3.2 start parameter check

// Quartz registration done when a schedule goes online (both versions).
inline constexpr char kQuartzSchedulerName[] = "DolphinScheduler";
inline constexpr char kQuartzTablePrefix[] = "QRTZ_";
inline constexpr char kQuartzJobNamePrefix[] = "job_";       // + schedule id
inline constexpr char kQuartzJobGroupPrefix[] = "jobgroup_"; // + project id (not code)
inline constexpr char kQuartzDataProjectId[] = "projectId";
inline constexpr char kQuartzDataScheduleId[] = "scheduleId";
inline constexpr char kQuartzJobClass[] =
    "org.apache.dolphinscheduler.scheduler.quartz.ProcessScheduleTask";

// Table names per version.
namespace v32 {
inline constexpr char kCommandTable[] = "t_ds_command";
inline constexpr char kInstanceTable[] = "t_ds_process_instance";
inline constexpr char kDefinitionTable[] = "t_ds_process_definition";
inline constexpr char kScheduleTable[] = "t_ds_schedules";
inline constexpr char kTriggerRelationTable[] = "t_ds_trigger_relation";
inline constexpr char kDefinitionCodeColumn[] = "process_definition_code";
inline constexpr char kDefinitionVersionColumn[] = "process_definition_version";
inline constexpr char kInstanceIdColumn[] = "process_instance_id";
inline constexpr char kPriorityColumn[] = "process_instance_priority";
} // namespace v32

namespace v33 {
inline constexpr char kCommandTable[] = "t_ds_command";
inline constexpr char kInstanceTable[] = "t_ds_workflow_instance";
inline constexpr char kDefinitionTable[] = "t_ds_workflow_definition";
inline constexpr char kScheduleTable[] = "t_ds_schedules";
inline constexpr char kDefinitionCodeColumn[] = "workflow_definition_code";
inline constexpr char kDefinitionVersionColumn[] = "workflow_definition_version";
inline constexpr char kInstanceIdColumn[] = "workflow_instance_id";
inline constexpr char kPriorityColumn[] = "workflow_instance_priority";
} // namespace v33

// The API's state checks, as predicates on the stored codes.

// 3.2.2 PauseExecuteFunction.
constexpr bool canPause32(int state)
{
    return state == int(WorkflowExecutionStatus32::RunningExecution);
}

// 3.2.2 StopExecuteFunction (READY_STOP is refused).
constexpr bool canStop32(int state)
{
    return state == int(WorkflowExecutionStatus32::RunningExecution)
           || state == int(WorkflowExecutionStatus32::ReadyPause);
}

// 3.2.2 RepeatRunningExecuteFunction ("finished").
constexpr bool canRerun32(int state)
{
    return state == int(WorkflowExecutionStatus32::Success)
           || state == int(WorkflowExecutionStatus32::Failure)
           || state == int(WorkflowExecutionStatus32::Stop)
           || state == int(WorkflowExecutionStatus32::Pause)
           || state == int(WorkflowExecutionStatus32::Block);
}

// 3.3 PauseWorkflowInstanceExecutorDelegate.
constexpr bool canPause33(int state)
{
    return state == int(WorkflowExecutionStatus33::RunningExecution)
           || state == int(WorkflowExecutionStatus33::ReadyPause)
           || state == int(WorkflowExecutionStatus33::SerialWait);
}

// 3.3 StopWorkflowInstanceExecutorDelegate.
constexpr bool canStop33(int state)
{
    return state == int(WorkflowExecutionStatus33::RunningExecution)
           || state == int(WorkflowExecutionStatus33::ReadyPause)
           || state == int(WorkflowExecutionStatus33::ReadyStop)
           || state == int(WorkflowExecutionStatus33::SerialWait);
}

// 3.3: pause/stop of these states is a conditional UPDATE of state (to 3 / 5) in the database;
// every other allowed state needs the owning master (RPC), which a database console cannot do.
constexpr bool pauseOrStopInDatabase33(int state)
{
    return state == int(WorkflowExecutionStatus33::SerialWait);
}

// 3.3 RepeatRunningWorkflowInstanceExecutorDelegate ("finished").
constexpr bool canRerun33(int state)
{
    return state == int(WorkflowExecutionStatus33::Success)
           || state == int(WorkflowExecutionStatus33::Failure)
           || state == int(WorkflowExecutionStatus33::Stop)
           || state == int(WorkflowExecutionStatus33::Pause);
}

// Both versions: rerun from the failed tasks needs FAILURE; resume needs PAUSE or STOP
// (codes 6, 3 and 5 are the same in 3.2 and 3.3).
constexpr bool canRecoverFailedTasks(int state)
{
    return state == 6;
}

constexpr bool canRecoverSuspended(int state)
{
    return state == 3 || state == 5;
}

} // namespace hg::dolphinscheduler
