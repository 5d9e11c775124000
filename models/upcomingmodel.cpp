#include "upcomingmodel.h"

#include "displayformat.h"
#include "scheduler/scheduleplan.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"

#include <algorithm>

namespace hg {

UpcomingModel::UpcomingModel(Store &store, QObject *parent)
    : TableModel({tr("When"), tr("Chain"), tr("Schedule")}, parent)
    , m_store(store)
{}

Status UpcomingModel::reload(const QDateTime &from, int days)
{
    Result<Week> week = compute(m_store, from, days);
    if (!week)
        return week.error();
    show(std::move(week.value()));
    return {};
}

void UpcomingModel::show(Week week)
{
    beginResetModel();
    m_fires = std::move(week.fires);
    m_truncated = week.truncated;
    endResetModel();
}

int UpcomingModel::dropPast(qint64 nowMs)
{
    const auto firstAhead = std::find_if(m_fires.cbegin(), m_fires.cend(),
                                         [nowMs](const Fire &fire) { return fire.atMs >= nowMs; });
    const int past = int(firstAhead - m_fires.cbegin());
    if (past == 0)
        return 0;
    beginRemoveRows({}, 0, past - 1);
    m_fires.remove(0, past);
    endRemoveRows();
    return past;
}

Result<UpcomingModel::Week> UpcomingModel::compute(Store &store, const QDateTime &from, int days)
{
    const Result<QList<Schedule>> schedules = ScheduleRepository(store).list();
    const Result<QList<Chain>> chains = ChainRepository(store).list();
    if (!schedules)
        return schedules.error();
    if (!chains)
        return chains.error();
    QHash<qint64, Chain> chainById;
    for (const Chain &chain : chains.value())
        chainById.insert(chain.id, chain);
    // Paths from one read of the projects, not a query per chain.
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    if (!projects)
        return projects.error();
    QHash<qint64, QString> projectNames;
    for (const Project &project : projects.value())
        projectNames.insert(project.id, project.name);
    QHash<qint64, QString> paths;
    for (const Chain &chain : chains.value())
        paths.insert(chain.id,
                     ChainPath{projectNames.value(chain.projectId), chain.name}.toString());

    const qint64 startMs =
        (from.isValid() ? from : QDateTime::currentDateTimeUtc()).toMSecsSinceEpoch();
    const qint64 endMs = startMs + qint64(days) * 86400000;
    QList<Fire> fires;
    int truncated = 0;
    SchedulePlan::Cache cache;
    for (const Schedule &schedule : schedules.value()) {
        const Chain chain = chainById.value(schedule.chainId);
        if (!schedule.enabled || !chain.enabled)
            continue;
        const Result<SchedulePlan> plan =
            SchedulePlan::create(schedule, QTimeZone::systemTimeZone(), &cache);
        if (!plan)
            continue;
        const QString description =
            schedule.timeZone.isEmpty()
                ? schedule.expression
                : schedule.expression + QLatin1String(" (") + schedule.timeZone + QLatin1Char(')');
        int count = 0;
        for (std::optional<qint64> next = plan->nextFireMs(startMs - 1); next && *next < endMs;
             next = plan->nextFireMs(*next)) {
            if (++count > perSchedule) {
                ++truncated;
                fires.last().continues = true;
                break;
            }
            fires << Fire{*next, chain.id, schedule.id, paths.value(chain.id), description};
        }
    }
    std::stable_sort(fires.begin(), fires.end(),
                     [](const Fire &a, const Fire &b) { return a.atMs < b.atMs; });
    return Week{std::move(fires), truncated};
}

int UpcomingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_fires.size());
}

QVariant UpcomingModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Fire &fire = m_fires.at(index.row());
    switch (role) {
    case FireTimeRole:
        return QDateTime::fromMSecsSinceEpoch(fire.atMs, Qt::UTC);
    case ChainIdRole:
        return fire.chainId;
    case ScheduleIdRole:
        return fire.scheduleId;
    case ContinuesRole:
        return fire.continues;
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case WhenColumn:
            return DisplayFormat::weekdayDateTime(QDateTime::fromMSecsSinceEpoch(fire.atMs));
        case ChainColumn:
            return fire.chainPath;
        case ScheduleColumn:
            return fire.schedule;
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
