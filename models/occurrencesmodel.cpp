#include "occurrencesmodel.h"

#include "displayformat.h"
#include "occurrencepresentation.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "store/occurrencerepository.h"
#include "store/projectrepository.h"

#include <QMap>

#include <algorithm>
#include <limits>

namespace hg {

OccurrencesModel::OccurrencesModel(Store &store, QObject *parent)
    : TableModel({tr("Fire time"), tr("Chain"), tr("Outcome"), tr("Fire times"), tr("Detail")},
                 parent)
    , m_store(store)
{}

Status OccurrencesModel::reload(std::optional<qint64> chainId, qint64 fromMs, qint64 toMs,
                                int perChain)
{
    Result<Span> span = compute(m_store, chainId, fromMs, toMs, perChain);
    if (!span)
        return span.error();
    show(std::move(span.value()));
    return {};
}

void OccurrencesModel::show(Span span)
{
    beginResetModel();
    m_alerts = std::move(span.alerts);
    m_rows = std::move(span.rows);
    m_paths = std::move(span.paths);
    m_fromMs = span.fromMs;
    m_toMs = span.toMs;
    endResetModel();
}

Result<OccurrencesModel::Span> OccurrencesModel::compute(Store &store,
                                                         std::optional<qint64> chainId,
                                                         qint64 fromMs, qint64 toMs, int perChain)
{
    const Result<QList<Chain>> chains = ChainRepository(store).list();
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    if (!chains)
        return chains.error();
    if (!projects)
        return projects.error();
    QHash<qint64, QString> projectNames;
    for (const Project &project : projects.value())
        projectNames.insert(project.id, project.name);
    QHash<qint64, QString> paths;
    for (const Chain &chain : chains.value()) {
        if (!chainId || chain.id == *chainId)
            paths.insert(chain.id,
                         ChainPath{projectNames.value(chain.projectId), chain.name}.toString());
    }
    OccurrenceRepository ledger(store);
    Result<QList<Occurrence>> listed = chainId ? ledger.list(*chainId, fromMs, toMs, perChain)
                                               : ledger.listEveryChain(fromMs, toMs, perChain);
    if (!listed)
        return listed.error();
    QList<Occurrence> rows = std::move(listed.value());
    std::stable_sort(rows.begin(), rows.end(), [](const Occurrence &a, const Occurrence &b) {
        return a.firstFireMs < b.firstFireMs;
    });
    // One chain's strip marks its runs' alerts; every chain's timeline does not ask.
    QHash<qint64, QString> alertTexts;
    if (chainId) {
        QList<qint64> runIds;
        for (const Occurrence &o : std::as_const(rows)) {
            if (o.outcome == OccurrenceOutcome::Ran)
                runIds << o.runId;
        }
        if (const Result<QHash<qint64, QList<Alert>>> alerts =
                AlertRepository(store).forRuns(runIds))
            alertTexts = OccurrencePresentation::alertTexts(alerts.value());
    }
    return Span{std::move(rows), std::move(paths), std::move(alertTexts), fromMs, toMs};
}

void OccurrencesModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_alerts.clear();
    endResetModel();
}

QString OccurrencesModel::summary() const
{
    return summary(m_rows);
}

QString OccurrencesModel::summary(const QList<Occurrence> &occurrences)
{
    QMap<OccurrenceOutcome, qint64> counts;
    for (const Occurrence &o : occurrences)
        counts[o.outcome] += o.count;
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << tr("%1 %2").arg(it.value()).arg(OccurrencePresentation::label(it.key()));
    return parts.isEmpty() ? tr("no fire time") : parts.join(QStringLiteral(", "));
}

int OccurrencesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant OccurrencesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Occurrence &o = m_rows.at(index.row());
    switch (role) {
    case FirstFireRole:
        return o.firstFireMs;
    case LastFireRole:
        return o.lastFireMs;
    case ChainIdRole:
        return o.chainId;
    case OutcomeRole:
        return int(o.outcome);
    case CountRole:
        return o.count;
    case RunIdRole:
        return o.runId;
    case FillRole:
        return OccurrencePresentation::fill(o);
    case UnrunRole:
        return OccurrencePresentation::unrun(o);
    case AlertRole:
        return o.outcome == OccurrenceOutcome::Ran ? m_alerts.value(o.runId) : QString();
    case Qt::ToolTipRole: {
        const QString alerts =
            o.outcome == OccurrenceOutcome::Ran ? m_alerts.value(o.runId) : QString();
        return alerts.isEmpty() ? OccurrencePresentation::detail(o)
                                : OccurrencePresentation::detail(o) + QLatin1Char('\n') + alerts;
    }
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case WhenColumn:
            return DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(o.firstFireMs));
        case ChainColumn:
            return m_paths.value(o.chainId);
        case OutcomeColumn:
            return OccurrencePresentation::label(o.outcome);
        case CountColumn:
            return o.count;
        case DetailColumn:
            return OccurrencePresentation::detail(o);
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
