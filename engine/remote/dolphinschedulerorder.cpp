#include "dolphinschedulerorder.h"

#include <QSqlQuery>

#include <array>

namespace hg {
namespace {

struct ColumnName
{
    DsSortColumn column;
    const char *name;
};

constexpr std::array<ColumnName, 9> columnNameList{{{DsSortColumn::Id, "id"},
                                                    {DsSortColumn::Name, "name"},
                                                    {DsSortColumn::Type, "type"},
                                                    {DsSortColumn::State, "state"},
                                                    {DsSortColumn::Host, "host"},
                                                    {DsSortColumn::Start, "start"},
                                                    {DsSortColumn::End, "end"},
                                                    {DsSortColumn::Duration, "duration"},
                                                    {DsSortColumn::Retries, "retries"}}};

} // namespace

QString DolphinSchedulerOrder::columnName(DsSortColumn column)
{
    for (const ColumnName &entry : columnNameList) {
        if (entry.column == column)
            return QString::fromLatin1(entry.name);
    }
    return {};
}

std::optional<DsSortColumn> DolphinSchedulerOrder::columnNamed(const QString &name)
{
    for (const ColumnName &entry : columnNameList) {
        if (name.compare(QLatin1String(entry.name), Qt::CaseInsensitive) == 0)
            return entry.column;
    }
    return std::nullopt;
}

QStringList DolphinSchedulerOrder::columnNames()
{
    QStringList names;
    for (const ColumnName &entry : columnNameList)
        names << QString::fromLatin1(entry.name);
    return names;
}

bool DolphinSchedulerOrder::descendingFirst(DsSortColumn column)
{
    return column != DsSortColumn::Name && column != DsSortColumn::Type
           && column != DsSortColumn::Host;
}

Result<DolphinSchedulerOrder> DolphinSchedulerOrder::make(Listing listing, const DsSort &sort,
                                                          bool mysql)
{
    const bool tasks = listing == Listing::TaskInstances;
    const QString table = tasks ? QStringLiteral("t.") : QStringLiteral("i.");
    const QString id = table + QStringLiteral("id");
    const auto column = [&table](const char *name) -> QString {
        return table + QLatin1String(name);
    };
    switch (sort.column) {
    case DsSortColumn::Id:
        return DolphinSchedulerOrder(id, id, KeyType::Integer, sort.descending, mysql);
    case DsSortColumn::Name:
        return DolphinSchedulerOrder(column("name"), id, KeyType::Text, sort.descending, mysql);
    case DsSortColumn::Type:
        if (!tasks)
            return Error::invalid(tr("workflow instances have no type to sort by"));
        return DolphinSchedulerOrder(column("task_type"), id, KeyType::Text, sort.descending,
                                     mysql);
    case DsSortColumn::State:
        return DolphinSchedulerOrder(column("state"), id, KeyType::Integer, sort.descending, mysql);
    case DsSortColumn::Host:
        return DolphinSchedulerOrder(column("host"), id, KeyType::Text, sort.descending, mysql);
    case DsSortColumn::Start:
        return DolphinSchedulerOrder(column("start_time"), id, KeyType::Time, sort.descending,
                                     mysql);
    case DsSortColumn::End:
        return DolphinSchedulerOrder(column("end_time"), id, KeyType::Time, sort.descending, mysql);
    case DsSortColumn::Duration:
        // NULL while either end is missing. MySQL's DATETIME difference in microseconds is an
        // integer; PostgreSQL's is an interval, which orders as the time it spans.
        return DolphinSchedulerOrder(
            mysql ? QStringLiteral("TIMESTAMPDIFF(MICROSECOND, %1, %2)")
                        .arg(column("start_time"), column("end_time"))
                  : QStringLiteral("(%2 - %1)").arg(column("start_time"), column("end_time")),
            id, KeyType::Duration, sort.descending, mysql);
    case DsSortColumn::Retries:
        return DolphinSchedulerOrder(column(tasks ? "retry_times" : "run_times"), id,
                                     KeyType::Integer, sort.descending, mysql);
    }
    return Error::invalid(tr("no such column to sort by"));
}

QString DolphinSchedulerOrder::keyAsText() const
{
    return QStringLiteral("CAST(%1 AS %2)")
        .arg(m_key, m_mysql ? QStringLiteral("CHAR") : QStringLiteral("text"));
}

QString DolphinSchedulerOrder::boundKey() const
{
    // MySQL compares a string with a text column in the column's collation, as it sorts it.
    if (m_mysql && m_type == KeyType::Text)
        return QStringLiteral("?");
    const char *type = "text";
    switch (m_type) {
    case KeyType::Integer:
    case KeyType::Duration:
        type = m_mysql ? "SIGNED" : (m_type == KeyType::Integer ? "bigint" : "interval");
        break;
    case KeyType::Time:
        type = m_mysql ? "DATETIME(6)" : "timestamp";
        break;
    case KeyType::Text:
        break;
    }
    return QStringLiteral("CAST(? AS %1)").arg(QLatin1String(type));
}

QString DolphinSchedulerOrder::orderBy() const
{
    const QString direction = m_descending ? QStringLiteral(" DESC") : QString();
    if (m_key == m_id)
        return QStringLiteral("ORDER BY ") + m_id + direction;
    if (m_mysql)
        return QStringLiteral("ORDER BY %1 IS NULL, %1%2, %3%2").arg(m_key, direction, m_id);
    return QStringLiteral("ORDER BY %1%2 NULLS LAST, %3%2").arg(m_key, direction, m_id);
}

QString DolphinSchedulerOrder::after(const DsKeyset &after, QVariantList &values) const
{
    if (after.id <= 0)
        return {};
    const QString beyond = m_descending ? QStringLiteral(" < ") : QStringLiteral(" > ");
    if (m_key == m_id) {
        values << after.id;
        return m_id + beyond + QLatin1Char('?');
    }
    // After a NULL key come only the NULLs further on; after a value, the values beyond it,
    // then the same value further on, then every NULL.
    if (!after.key) {
        values << after.id;
        return QStringLiteral("(%1 IS NULL AND %2%3?)").arg(m_key, m_id, beyond);
    }
    values << *after.key << *after.key << after.id;
    return QStringLiteral("(%1%2%3 OR (%1 = %3 AND %4%2?) OR %1 IS NULL)")
        .arg(m_key, beyond, boundKey(), m_id);
}

DsKeyset DolphinSchedulerOrder::keyset(const QSqlQuery &query, int idColumn, int keyColumn)
{
    DsKeyset keyset;
    keyset.id = query.value(idColumn).toLongLong();
    if (const QVariant key = query.value(keyColumn); !key.isNull())
        keyset.key = key.toString();
    return keyset;
}

} // namespace hg
