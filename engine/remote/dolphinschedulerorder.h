#pragma once

#include "base/result.h"
#include "dolphinschedulertypes.h"

#include <QCoreApplication>
#include <QString>
#include <QVariantList>

#include <optional>

class QSqlQuery;

namespace hg {

// A DsSort as SQL for one of DolphinScheduler's instance listings on one server: the sort key's
// expression, the ORDER BY, and the keyset condition of the rows after a given one. The key
// expression is the same in all three (a duration is end_time - start_time everywhere), so a
// page continues exactly where the last ended. NULL keys come last in both directions, ties go
// by id. Workflow instances are read as "i", task instances as "t".
//
// A page is read by two statements, the rows with a key and then, only if the page is not
// full, those without: "ORDER BY start_time DESC NULLS LAST" (or MySQL's "start_time IS NULL,
// start_time") cannot walk an index on start_time, so one statement sorts every row
// (100,000 workflow instances: 150 ms), where the first of the two reads 50 (under 1 ms).
class DolphinSchedulerOrder final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerOrder)

public:
    enum class Listing { WorkflowInstances, TaskInstances };

    // Refuses a column the listing has not (a workflow instance has no type).
    static Result<DolphinSchedulerOrder> make(Listing listing, const DsSort &sort, bool mysql);

    // The command line's names: id, name, type, state, host, start, end, duration, retries.
    static QString columnName(DsSortColumn column);
    static std::optional<DsSortColumn> columnNamed(const QString &name);
    static QStringList columnNames();
    // The direction a column is first sorted in: names and hosts A to Z, the rest the newest,
    // latest, longest or highest first.
    static bool descendingFirst(DsSortColumn column);

    // The sort key as text, for the select list: a row's keyset is read from it.
    QString keyAsText() const;

    struct Statement
    {
        QString sql;
        QVariantList values;
    };
    // The statements, in order, that read up to LIMIT rows after AFTER (none: from the first):
    // COLUMNS (ending with keyAsText()) from FROM (the row's table with its joins) under
    // CONDITIONS with their VALUES. Run the next only while the page is short of LIMIT rows.
    QList<Statement> page(const QString &columns, const QString &from,
                          const QStringList &conditions, const QVariantList &values,
                          const DsKeyset &after, int limit) const;
    // A row's keyset, from the id and the keyAsText() column of QUERY.
    static DsKeyset keyset(const QSqlQuery &query, int idColumn, int keyColumn);

private:
    enum class KeyType { Integer, Text, Time, Duration };

    // HASKEY: the condition of a row whose key is not NULL (default: "KEY IS NOT NULL").
    DolphinSchedulerOrder(QString key, QString id, KeyType type, bool descending, bool mysql,
                          QString hasKey = {})
        : m_key(std::move(key))
        , m_hasKey(hasKey.isEmpty() ? m_key + QStringLiteral(" IS NOT NULL") : std::move(hasKey))
        , m_id(std::move(id))
        , m_type(type)
        , m_descending(descending)
        , m_mysql(mysql)
    {}
    // A bound key, as text, turned back into the key's type.
    QString boundKey() const;

    QString m_key; // the key's expression
    QString m_hasKey;
    QString m_id; // the row's id column
    KeyType m_type;
    bool m_descending;
    bool m_mysql;
};

} // namespace hg
