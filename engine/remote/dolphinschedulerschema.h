#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

class RemoteDatabase;

// Which of DolphinScheduler's table layouts a database holds, told by the tables and columns
// that exist (released DDL files do not always record their own version: 3.2.2's says 3.3.0):
// 2.0.x to 3.2.x name workflows "process" (t_ds_process_definition, process_definition_code),
// 3.3 renamed them "workflow" (t_ds_workflow_definition, workflow_definition_code). Every
// query names its tables and columns through this, so one reader serves both.
class DolphinSchedulerSchema final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerSchema)

public:
    enum class Layout { Process, Workflow };

    // An error names the remote and what is missing when the database matches neither layout.
    static Result<DolphinSchedulerSchema> detect(RemoteDatabase &remote);

    Layout layout() const { return m_layout; }
    // "2.0–3.2 (t_ds_process_*)" or "3.3 (t_ds_workflow_*)".
    QString layoutName() const;

    QString definitionTable() const { return table(QStringLiteral("definition")); }
    QString relationTable() const { return table(QStringLiteral("task_relation")); }
    QString instanceTable() const { return table(QStringLiteral("instance")); }
    // In t_ds_schedules, t_ds_command, the relation and instance tables.
    QString definitionCodeColumn() const { return word() + QStringLiteral("_definition_code"); }
    QString definitionVersionColumn() const
    {
        return word() + QStringLiteral("_definition_version");
    }
    // In t_ds_task_instance and t_ds_command.
    QString instanceIdColumn() const { return word() + QStringLiteral("_instance_id"); }
    // In t_ds_schedules and t_ds_command.
    QString instancePriorityColumn() const { return word() + QStringLiteral("_instance_priority"); }

    // Parts only some releases have, found once when the schema is detected: test_flag on
    // commands and instances (3.2, gone in 3.3.1), t_ds_trigger_relation (3.2 only).
    bool hasTestFlag() const { return m_hasTestFlag; }
    bool hasTriggerRelation() const { return m_hasTriggerRelation; }
    // t_ds_command.tenant_code: 3.2 on (before, the tenant came from the definition).
    bool hasCommandTenantCode() const { return m_hasCommandTenantCode; }
    // The instance's state_history, which came with 3.1. The releases before it (2.0.x, 3.0)
    // also write a complement as a start and end date (complementStartDate/EndDate), where 3.1
    // on write the list of dates; Hourglass follows 2.0.9's API server for them.
    bool hasStateHistory() const { return m_hasStateHistory; }
    // 2.0.x or 3.0: instance states are 2.0's ExecutionStatus and instance acts follow 2.0.9's
    // ExecutorServiceImpl.execute (dolphinschedulerprotocol.h).
    bool isRelease20() const { return m_layout == Layout::Process && !m_hasStateHistory; }
    // Quartz's tables (QRTZ_TRIGGERS and the rest), where a schedule's job lives while online.
    bool hasQuartz() const { return m_hasQuartz; }
    // t_ds_version, which records the release its DDL says it is.
    bool hasVersionTable() const { return m_hasVersionTable; }

private:
    explicit DolphinSchedulerSchema(Layout layout)
        : m_layout(layout)
    {}
    QString word() const
    {
        return m_layout == Layout::Process ? QStringLiteral("process") : QStringLiteral("workflow");
    }
    QString table(const QString &suffix) const
    {
        return QStringLiteral("t_ds_%1_%2").arg(word(), suffix);
    }

    Layout m_layout;
    bool m_hasTestFlag = false;
    bool m_hasTriggerRelation = false;
    bool m_hasCommandTenantCode = false;
    bool m_hasStateHistory = false;
    bool m_hasQuartz = false;
    bool m_hasVersionTable = false;
};

} // namespace hg
