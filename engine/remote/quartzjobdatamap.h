#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QVariant>

namespace hg {

// A Quartz org.quartz.JobDataMap as Quartz's JDBC job store keeps it in QRTZ_JOB_DETAILS.JOB_DATA
// when useProperties is false (DolphinScheduler's setting): the map written by Java's
// ObjectOutputStream (the Java Object Serialization Stream Protocol, version 5). Only what
// DolphinScheduler puts in it is supported: String keys with Integer or String values, in the
// order they were put. No C++ library writes Java's serialization format, so this does, for
// exactly this object graph; the test holds it against bytes Java wrote (Quartz 2.3).
class QuartzJobDataMap final
{
public:
    using Entry = QPair<QString, QVariant>; // QVariant: int or QString

    QuartzJobDataMap() = delete;

    static QByteArray serialize(const QList<Entry> &entries);
    // java.lang.String.hashCode(), which orders a HashMap's entries.
    static qint32 javaHashCode(const QString &text);
};

} // namespace hg
