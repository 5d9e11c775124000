#include "heldjournal.h"

#include "base/enumnames.h"
#include "base/epochtime.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace hg {
namespace {

QJsonValue msOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toMSecsSinceEpoch()) : QJsonValue();
}

QDateTime timeOf(const QJsonValue &value)
{
    return value.isNull() || value.isUndefined() ? QDateTime()
                                                 : utcFromMs(qint64(value.toDouble()));
}

QJsonObject toJson(const RunRecorder::Held &change)
{
    const TaskRun &t = change.taskRun;
    return QJsonObject{
        {QStringLiteral("runId"), change.runId},
        {QStringLiteral("runState"), enumName(change.state)},
        {QStringLiteral("at"), msOrNull(change.at)},
        {QStringLiteral("engine"), change.engineName},
        {QStringLiteral("taskRunId"), t.id},
        {QStringLiteral("taskId"), t.taskId},
        {QStringLiteral("attempt"), t.attempt},
        {QStringLiteral("state"), enumName(t.state)},
        {QStringLiteral("pid"), t.pid},
        {QStringLiteral("processStart"), t.processStartTicks},
        {QStringLiteral("exitCode"), t.exitCode ? QJsonValue(*t.exitCode) : QJsonValue()},
        {QStringLiteral("error"), t.error},
        {QStringLiteral("startedAt"), msOrNull(t.startedAt)},
        {QStringLiteral("finishedAt"), msOrNull(t.finishedAt)}};
}

std::optional<RunRecorder::Held> fromJson(const QJsonObject &o)
{
    RunRecorder::Held change;
    change.runId = qint64(o.value(QStringLiteral("runId")).toDouble());
    const auto runState = enumFromString<RunState>(o.value(QStringLiteral("runState")).toString());
    const auto state = enumFromString<RunState>(o.value(QStringLiteral("state")).toString());
    if (change.runId <= 0 || !runState || !state)
        return std::nullopt;
    change.state = *runState;
    change.at = timeOf(o.value(QStringLiteral("at")));
    change.engineName = o.value(QStringLiteral("engine")).toString();
    TaskRun &t = change.taskRun;
    t.id = qint64(o.value(QStringLiteral("taskRunId")).toDouble());
    t.runId = change.runId;
    t.taskId = qint64(o.value(QStringLiteral("taskId")).toDouble());
    t.attempt = o.value(QStringLiteral("attempt")).toInt(1);
    t.state = *state;
    t.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
    t.processStartTicks = qint64(o.value(QStringLiteral("processStart")).toDouble());
    if (const QJsonValue code = o.value(QStringLiteral("exitCode")); code.isDouble())
        t.exitCode = code.toInt();
    t.error = o.value(QStringLiteral("error")).toString();
    t.startedAt = timeOf(o.value(QStringLiteral("startedAt")));
    t.finishedAt = timeOf(o.value(QStringLiteral("finishedAt")));
    return change;
}

} // namespace

HeldJournal::HeldJournal(const QString &storePath, QString storeFile)
    : m_storePath(QFileInfo(storePath).absoluteFilePath())
    , m_storeFile(std::move(storeFile))
{}

QStringList HeldJournal::candidates() const
{
    // The runtime directory is kept in memory on most desktops: a full disk does not stop it.
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(m_storePath.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    return {m_storePath + QStringLiteral(".held.json"),
            QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation)
                + QStringLiteral("/hourglass-held-%1.json").arg(hash)};
}

Result<QString> HeldJournal::save(const Contents &contents) const
{
    QJsonArray array;
    for (const RunRecorder::Held &change : contents.changes) {
        if (!change.claim) // a claim is this engine's alone: the next one claims anew
            array << toJson(change);
    }
    QJsonArray lines;
    for (const LogLine &line : contents.lines)
        lines << QJsonObject{{QStringLiteral("runId"), line.runId},
                             {QStringLiteral("taskRunId"), line.taskRunId},
                             {QStringLiteral("stream"), enumName(line.stream)},
                             {QStringLiteral("at"), msOrNull(line.at)},
                             {QStringLiteral("text"), line.text}};
    QStringList failures;
    for (const QString &path : candidates()) {
        // A journal already there (an earlier stop) is kept: this one goes on after it.
        QFile file(path);
        QJsonObject earlier;
        if (file.open(QIODevice::ReadOnly))
            earlier = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        if (const QString owner = earlier.value(QStringLiteral("file")).toString();
            !owner.isEmpty() && owner != m_storeFile) {
            failures
                << tr("%1 holds what an engine held for another file once at this path").arg(path);
            continue;
        }
        QJsonArray changes = earlier.value(QStringLiteral("changes")).toArray();
        for (const auto &change : std::as_const(array))
            changes << change;
        QJsonArray markers = earlier.value(QStringLiteral("lines")).toArray();
        for (const auto &line : std::as_const(lines))
            markers << line;
        const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("store"), m_storePath},
                                                           {QStringLiteral("file"), m_storeFile},
                                                           {QStringLiteral("changes"), changes},
                                                           {QStringLiteral("lines"), markers}})
                                     .toJson(QJsonDocument::Compact);
        QSaveFile out(path);
        const bool committed = out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size()
                               && out.flush() && out.commit();
        // Read back: on a full filesystem a write can look done and leave an empty file.
        QFile check(path);
        if (committed && check.open(QIODevice::ReadOnly) && check.readAll() == bytes)
            return path;
        if (committed)
            QFile::remove(path);
        failures << QStringLiteral("%1: %2").arg(
            path, committed ? tr("the file did not keep what was written") : out.errorString());
    }
    return Error::storage(tr("the engine's held state changes could be saved nowhere (%1)")
                              .arg(failures.join(QStringLiteral("; "))));
}

Result<HeldJournal::Contents> HeldJournal::load(QStringList *files) const
{
    Contents contents;
    for (const QString &path : candidates()) {
        QFile file(path);
        if (!file.exists())
            continue;
        if (!file.open(QIODevice::ReadOnly))
            return Error::storage(tr("cannot read %1: %2").arg(path, file.errorString()));
        const QByteArray bytes = file.readAll();
        QJsonParseError parsed{};
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &parsed);
        // Empty: a save that a full disk cut short before anything was in it.
        if (!bytes.isEmpty() && parsed.error != QJsonParseError::NoError)
            return Error::invalid(tr("%1 cannot be read: %2").arg(path, parsed.errorString()));
        // Written before files were named (no "file"): taken as this store's, as then.
        const QString owner = document.object().value(QStringLiteral("file")).toString();
        if (!owner.isEmpty() && owner != m_storeFile) {
            m_foreign << path;
            continue;
        }
        const QJsonArray array = document.object().value(QStringLiteral("changes")).toArray();
        for (const auto &value : array) {
            const std::optional<RunRecorder::Held> change = fromJson(value.toObject());
            if (!change)
                return Error::invalid(tr("%1 holds a state change that cannot be read").arg(path));
            contents.changes << *change;
        }
        const QJsonArray lines = document.object().value(QStringLiteral("lines")).toArray();
        for (const auto &value : lines) {
            const QJsonObject o = value.toObject();
            contents.lines << LogLine{
                0,
                qint64(o.value(QStringLiteral("runId")).toDouble()),
                qint64(o.value(QStringLiteral("taskRunId")).toDouble()),
                enumFromString<LogStream>(o.value(QStringLiteral("stream")).toString())
                    .value_or(LogStream::System),
                timeOf(o.value(QStringLiteral("at"))),
                o.value(QStringLiteral("text")).toString()};
        }
        *files << path;
    }
    return contents;
}

void HeldJournal::remove(const QStringList &files)
{
    for (const QString &path : files)
        QFile::remove(path);
}

} // namespace hg
