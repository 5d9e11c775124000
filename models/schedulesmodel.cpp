#include "schedulesmodel.h"

#include "cron/compiledcroncache.h"
#include "cron/cronexplainer.h"
#include "displayformat.h"
#include "scheduler/scheduleplan.h"
#include "store/chainrepository.h"
#include "store/schedulerepository.h"

#include <QTimer>

namespace hg {

SchedulesModel::SchedulesModel(Store &store, QObject *parent)
    : TableModel({tr("Expression"), tr("Meaning"), tr("Zone"), tr("Next fire"), tr("On")}, parent)
    , m_store(store)
    , m_ticker(new QTimer(this))
{
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this,
            [this] { advancePastFires(QDateTime::currentMSecsSinceEpoch()); });
    m_ticker->start();
}

QDateTime SchedulesModel::nextFire(const Schedule &schedule, bool chainOn, qint64 nowMs) const
{
    const Result<SchedulePlan> plan = SchedulePlan::create(schedule, m_defaultZone);
    if (!plan || !schedule.enabled || !chainOn)
        return {};
    // In the schedule's own zone, which the Zone column beside it names.
    const QTimeZone zone =
        schedule.timeZone.isEmpty() ? m_defaultZone : QTimeZone(schedule.timeZone.toUtf8());
    const std::optional<qint64> next = plan->nextFireMs(nowMs);
    return next ? QDateTime::fromMSecsSinceEpoch(*next, zone.isValid() ? zone : m_defaultZone)
                : QDateTime();
}

void SchedulesModel::advancePastFires(qint64 nowMs)
{
    for (qsizetype row = 0; row < m_rows.size(); ++row) {
        Row &shown = m_rows[row];
        if (shown.next.isValid() && shown.next.toMSecsSinceEpoch() <= nowMs)
            shown.next = nextFire(m_schedules.at(row), !shown.chainOff, nowMs);
    }
    // Every row's: what shows "in 4 s" counts down too.
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, NextColumn), index(int(m_rows.size()) - 1, NextColumn));
}

QString SchedulesModel::meaning(const Schedule &schedule, const QTimeZone &defaultZone)
{
    const QString zone =
        schedule.timeZone.isEmpty() ? QString::fromUtf8(defaultZone.id()) : schedule.timeZone;
    switch (schedule.kind) {
    case ScheduleKind::Once:
        return tr("Once, at %1").arg(schedule.expression);
    case ScheduleKind::Startup:
        return tr("When the engine starts");
    default:
        break;
    }
    const Result<CronExpression> cron =
        CompiledCronCache::shared().compile(schedule.expression, schedule.dialect);
    if (!cron)
        return cron.error().message;
    QString text = CronExplainer(cron.value()).describe(zone);
    if (schedule.calendarId > 0)
        text = (schedule.calendarMode == CalendarMode::Exclude ? tr("%1, not on the days of %2")
                                                               : tr("%1, only on the days of %2"))
                   .arg(text, schedule.calendarName);
    if (schedule.dst.isCronie())
        text = tr("%1; clock changes as cronie").arg(text);
    else if (!schedule.dst.isDefault())
        text = tr("%1; clock changes: %2").arg(text, schedule.dst.toText());
    return text;
}

Status SchedulesModel::show(qint64 chainId, std::optional<bool> chainOn)
{
    QList<Schedule> schedules;
    if (chainId > 0) {
        Result<QList<Schedule>> read = ScheduleRepository(m_store).list(chainId);
        if (!read)
            return read.error();
        schedules = read.value();
        // A switched-off chain fires nothing, whatever its schedules say.
        if (!chainOn) {
            const Result<Chain> chain = ChainRepository(m_store).byId(chainId);
            chainOn = !chain || chain->enabled;
        }
    }
    show(chainId, std::move(schedules), chainOn.value_or(true));
    return {};
}

void SchedulesModel::show(qint64 chainId, QList<Schedule> schedules, bool chainOn)
{
    QList<Row> rows;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const Schedule &schedule : schedules) {
        rows << Row{meaning(schedule, m_defaultZone), nextFire(schedule, chainOn, now), !chainOn};
    }
    beginResetModel();
    m_chainId = chainId;
    m_schedules = std::move(schedules);
    m_rows = std::move(rows);
    endResetModel();
}

int SchedulesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_schedules.size());
}

QVariant SchedulesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Schedule &schedule = m_schedules.at(index.row());
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case ScheduleIdRole:
        return schedule.id;
    case NextFireRole:
        return row.next;
    case Qt::ToolTipRole:
        // The meaning is elided in a narrow table (or its column hidden): whole in the tooltip.
        if (index.column() == MeaningColumn)
            return row.meaning;
        if (index.column() == ExpressionColumn)
            return tr("%1: %2").arg(schedule.expression, row.meaning);
        if (index.column() != NextColumn)
            return {};
        if (row.chainOff)
            return tr("The chain is switched off: nothing fires");
        return DisplayFormat::relative(row.next, QDateTime::currentDateTime());
    case Qt::CheckStateRole:
        return index.column() == EnabledColumn
                   ? QVariant(schedule.enabled ? Qt::Checked : Qt::Unchecked)
                   : QVariant();
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case ExpressionColumn:
            return schedule.expression;
        case MeaningColumn:
            return row.meaning;
        case ZoneColumn:
            return schedule.timeZone.isEmpty() ? tr("default") : schedule.timeZone;
        case NextColumn:
            // Within the week the weekday and time say it; the date only beyond. A schedule
            // in another zone than the machine's names the zone its time is in.
            if (!row.next.isValid())
                return QStringLiteral("—");
            if (row.next.timeZone() == QTimeZone::systemTimeZone()
                || row.next.timeZone().id() == QTimeZone::systemTimeZoneId())
                return DisplayFormat::soon(row.next, QDateTime::currentDateTime());
            return DisplayFormat::soonZoned(row.next, QDateTime::currentDateTime());
        case EnabledColumn:
        case ColumnCount:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

} // namespace hg
