#include "clisandbox.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hg::test {

CliSandbox::CliSandbox(QString binary)
    : m_binary(std::move(binary))
    , m_db(m_dir.filePath(QStringLiteral("store.db")))
{}

QProcessEnvironment CliSandbox::environment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("HOURGLASS_DB"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
    return environment;
}

void CliSandbox::start(QProcess &process, const QStringList &arguments) const
{
    process.setProcessEnvironment(environment());
    process.setWorkingDirectory(m_dir.path());
    process.start(m_binary, QStringList{QStringLiteral("--db"), m_db} + arguments);
}

CliSandbox::Output CliSandbox::run(const QStringList &arguments, int timeoutMs) const
{
    QProcess process;
    start(process, arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {-2, QString::fromUtf8(process.readAllStandardOutput()),
                QStringLiteral("(did not end within %1 ms) ").arg(timeoutMs)
                    + QString::fromUtf8(process.readAllStandardError())};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QString CliSandbox::define(const QList<QStringList> &commands) const
{
    for (const QStringList &command : commands) {
        const Output result = run(command);
        if (result.exitCode != 0)
            return command.join(u' ') + u": " + result.err;
    }
    return {};
}

QString CliSandbox::runState(const QString &runId) const
{
    const Output listed = run({QStringLiteral("runs"), QStringLiteral("--json")});
    for (const QJsonValue &value : QJsonDocument::fromJson(listed.out.toUtf8()).array()) {
        if (QString::number(value[QStringLiteral("id")].toInteger()) == runId)
            return value[QStringLiteral("state")].toString();
    }
    return {};
}

} // namespace hg::test
