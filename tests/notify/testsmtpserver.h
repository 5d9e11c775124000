#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace hg::test {

// A real SMTP server on loopback for the notification tests: Debian's aiosmtpd run by
// smtpreceiver.py, with a certificate from a CA the test makes (openssl), AUTH required.
// Every message it accepts is kept whole.
class TestSmtpServer final
{
public:
    enum class Mode { StartTls, Implicit, Plain };

    TestSmtpServer();
    ~TestSmtpServer();
    TestSmtpServer(const TestSmtpServer &) = delete;
    TestSmtpServer &operator=(const TestSmtpServer &) = delete;

    // Empty on success, else what is missing or failed.
    QString start(Mode mode, const QString &user = QStringLiteral("bob"),
                  const QString &password = QStringLiteral("hunter2"));
    void stop();
    quint16 port() const { return m_port; }
    QString caFile() const { return m_dir.filePath(QStringLiteral("ca.pem")); }

    struct Message
    {
        QString from;
        QStringList to;
        QByteArray content;
    };
    QList<Message> messages() const;

private:
    QString makeCertificates();

    QTemporaryDir m_dir;
    QProcess m_server;
    quint16 m_port = 0;
};

} // namespace hg::test
