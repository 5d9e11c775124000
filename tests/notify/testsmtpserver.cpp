#include "testsmtpserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>

namespace hg::test {
namespace {

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

QString run(const QString &program, const QStringList &arguments, const QString &folder)
{
    QProcess process;
    process.setWorkingDirectory(folder);
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return QStringLiteral("%1 failed: %2")
            .arg(program, QString::fromLocal8Bit(process.readAllStandardError()));
    return {};
}

} // namespace

TestSmtpServer::TestSmtpServer() = default;

TestSmtpServer::~TestSmtpServer()
{
    stop();
}

QString TestSmtpServer::makeCertificates()
{
    const QString folder = m_dir.path();
    QFile ext(m_dir.filePath(QStringLiteral("ext")));
    if (!ext.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1").arg(ext.fileName());
    ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    ext.close();
    const QString openssl = QStringLiteral("openssl");
    for (const QStringList &step :
         {QStringList{QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                      QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
                      QStringLiteral("-keyout"), QStringLiteral("ca.key"), QStringLiteral("-out"),
                      QStringLiteral("ca.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                      QStringLiteral("-subj"), QStringLiteral("/CN=Hourglass test CA")},
          QStringList{QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                      QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                      QStringLiteral("server.key"), QStringLiteral("-out"),
                      QStringLiteral("server.csr"), QStringLiteral("-subj"),
                      QStringLiteral("/CN=127.0.0.1")},
          QStringList{QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                      QStringLiteral("server.csr"), QStringLiteral("-CA"), QStringLiteral("ca.pem"),
                      QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                      QStringLiteral("-CAcreateserial"), QStringLiteral("-out"),
                      QStringLiteral("server.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                      QStringLiteral("-extfile"), QStringLiteral("ext")}}) {
        if (const QString failed = run(openssl, step, folder); !failed.isEmpty())
            return failed;
    }
    return {};
}

QString TestSmtpServer::start(Mode mode, const QString &user, const QString &password)
{
    if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
        return QStringLiteral("openssl is not installed");
    if (!QFile::exists(QStringLiteral("/usr/lib/python3/dist-packages/aiosmtpd")))
        return QStringLiteral("python3-aiosmtpd is not installed");
    if (mode != Mode::Plain)
        if (const QString failed = makeCertificates(); !failed.isEmpty())
            return failed;
    QDir(m_dir.path()).mkdir(QStringLiteral("mail"));
    m_port = freePort();
    const QString modeName = mode == Mode::StartTls   ? QStringLiteral("starttls")
                             : mode == Mode::Implicit ? QStringLiteral("implicit")
                                                      : QStringLiteral("plain");
    QStringList arguments{QStringLiteral(HOURGLASS_SMTP_RECEIVER), QString::number(m_port),
                          m_dir.filePath(QStringLiteral("mail")), modeName};
    if (mode != Mode::Plain)
        arguments << m_dir.filePath(QStringLiteral("server.pem"))
                  << m_dir.filePath(QStringLiteral("server.key")) << user << password;
    m_server.setProcessChannelMode(QProcess::SeparateChannels);
    m_server.start(QStringLiteral("/usr/bin/python3"), arguments);
    const QDeadlineTimer ready(30000);
    while (!m_server.canReadLine() && !ready.hasExpired()) {
        if (m_server.state() == QProcess::NotRunning)
            break;
        m_server.waitForReadyRead(200);
    }
    if (!m_server.readLine().startsWith("ready"))
        return QStringLiteral("the SMTP server did not start: %1")
            .arg(QString::fromLocal8Bit(m_server.readAllStandardError()));
    return {};
}

void TestSmtpServer::stop()
{
    if (m_server.state() == QProcess::NotRunning)
        return;
    m_server.terminate();
    if (!m_server.waitForFinished(5000)) {
        m_server.kill();
        m_server.waitForFinished(5000);
    }
}

QList<TestSmtpServer::Message> TestSmtpServer::messages() const
{
    QList<Message> messages;
    const QDir mail(m_dir.filePath(QStringLiteral("mail")));
    for (int n = 1;; ++n) {
        QFile envelope(mail.filePath(QStringLiteral("%1.env").arg(n)));
        QFile content(mail.filePath(QStringLiteral("%1.eml").arg(n)));
        if (!envelope.open(QIODevice::ReadOnly) || !content.open(QIODevice::ReadOnly))
            break;
        QStringList lines =
            QString::fromUtf8(envelope.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        Message message;
        message.from = lines.value(0);
        message.to = lines.mid(1);
        message.content = content.readAll();
        messages << message;
    }
    return messages;
}

} // namespace hg::test
