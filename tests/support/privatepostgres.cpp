#include "privatepostgres.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTcpServer>

#include <unistd.h>

namespace hg::test {
namespace {

const QString binDir = QStringLiteral("/usr/lib/postgresql/15/bin");

bool isRoot()
{
    return ::geteuid() == 0;
}

// As root, through runuser: PostgreSQL refuses to run as root.
bool runAsServerUser(const QString &program, const QStringList &arguments, QString *output)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    if (isRoot())
        process.start(QStringLiteral("runuser"),
                      QStringList{QStringLiteral("-u"), QStringLiteral("postgres"),
                                  QStringLiteral("--"), program}
                          + arguments);
    else
        process.start(program, arguments);
    const bool finished = process.waitForFinished(120000);
    if (output)
        *output = QString::fromLocal8Bit(process.readAll());
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

int freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

PrivatePostgres::PrivatePostgres() = default;

PrivatePostgres::~PrivatePostgres()
{
    if (m_running)
        stop();
}

bool PrivatePostgres::isInstalled()
{
    return QFileInfo(binDir + QStringLiteral("/initdb")).isExecutable();
}

QString PrivatePostgres::start()
{
    if (!m_dir.isValid())
        return QStringLiteral("no temporary directory");
    QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                            | QFileDevice::ExeOwner | QFileDevice::ReadOther
                                            | QFileDevice::ExeOther);
    const QString data = m_dir.filePath(QStringLiteral("data"));
    QDir().mkpath(data);
    if (isRoot()) {
        QProcess::execute(
            QStringLiteral("chown"),
            {QStringLiteral("-R"), QStringLiteral("postgres:postgres"), m_dir.path()});
    }
    QString output;
    if (!runAsServerUser(binDir + QStringLiteral("/initdb"),
                         {QStringLiteral("-D"), data, QStringLiteral("-A"), QStringLiteral("trust"),
                          QStringLiteral("-U"), QStringLiteral("postgres"),
                          QStringLiteral("--no-sync"), QStringLiteral("-E"),
                          QStringLiteral("UTF8")},
                         &output))
        return QStringLiteral("initdb failed: %1").arg(output);
    m_port = freePort();
    if (!pgCtl({QStringLiteral("start"), QStringLiteral("-w"), QStringLiteral("-t"),
                QStringLiteral("60"), QStringLiteral("-o"), serverOptions().join(u' ')},
               &output))
        return QStringLiteral("pg_ctl start failed: %1").arg(output);
    m_running = true;
    return {};
}

QStringList PrivatePostgres::serverOptions() const
{
    // fsync off is safe here (the machine does not crash, only the server); a commit must
    // still be in the WAL before it is acknowledged, or an immediate restart loses it.
    return {QStringLiteral("-p %1").arg(m_port), QStringLiteral("-k %1").arg(m_dir.path()),
            QStringLiteral("-c listen_addresses=127.0.0.1"), QStringLiteral("-c fsync=off"),
            QStringLiteral("-c max_connections=100")};
}

bool PrivatePostgres::pgCtl(const QStringList &arguments, QString *output) const
{
    return runAsServerUser(binDir + QStringLiteral("/pg_ctl"),
                           QStringList{QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")),
                                       QStringLiteral("-l"),
                                       m_dir.filePath(QStringLiteral("server.log"))}
                               + arguments,
                           output);
}

bool PrivatePostgres::restartImmediately()
{
    return pgCtl({QStringLiteral("restart"), QStringLiteral("-m"), QStringLiteral("immediate"),
                  QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"),
                  QStringLiteral("-o"), serverOptions().join(u' ')});
}

bool PrivatePostgres::startAgain()
{
    m_running = pgCtl({QStringLiteral("start"), QStringLiteral("-w"), QStringLiteral("-t"),
                       QStringLiteral("60"), QStringLiteral("-o"), serverOptions().join(u' ')});
    return m_running;
}

bool PrivatePostgres::stop()
{
    m_running = false;
    return pgCtl({QStringLiteral("stop"), QStringLiteral("-m"), QStringLiteral("immediate"),
                  QStringLiteral("-w")});
}

QUrl PrivatePostgres::url() const
{
    return QUrl(QStringLiteral("postgresql://postgres@127.0.0.1:%1/postgres").arg(m_port));
}

} // namespace hg::test
