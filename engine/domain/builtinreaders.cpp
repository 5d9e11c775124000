#include "builtinreaders.h"

#include "mailaddress.h"

#include <QDir>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace hg::builtinreaders {
namespace {

QString absolutePath(JsonFieldReader &fields, const QString &key, bool required)
{
    const QString path = required ? fields.requiredString(key) : fields.string(key);
    if ((required || !path.isEmpty()) && !QDir::isAbsolutePath(path))
        fields.fail(
            key, QCoreApplication::translate("hg::BuiltinArguments", "'%1' is not an absolute path")
                     .arg(path));
    return path;
}

bool isLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QStringList addresses(JsonFieldReader &fields, const QString &key)
{
    const QStringList list = fields.stringList(key);
    for (const QString &address : list)
        if (!mailaddress::isValid(address)) {
            fields.fail(key, QCoreApplication::translate("hg::BuiltinArguments",
                                                         "'%1' is not an e-mail address")
                                 .arg(address.left(300)));
            break;
        }
    return list;
}

} // namespace

// A NUL in a path or an argument cut it there when it reached the system (a file "a\0.evil"
// opened "a", helper-7).
void refuseNul(JsonFieldReader &fields, const QString &key, const QStringList &values)
{
    for (const QString &value : values)
        if (value.contains(QChar(0))) {
            fields.fail(
                key, QCoreApplication::translate("hg::BuiltinArguments", "holds a NUL character"));
            return;
        }
}

SendMailArguments readSendMail(JsonFieldReader &fields)
{
    fields.rejectUnknownKeys({QStringLiteral("server"), QStringLiteral("tls"), QStringLiteral("ca"),
                              QStringLiteral("passwordKey"), QStringLiteral("from"),
                              QStringLiteral("to"), QStringLiteral("cc"), QStringLiteral("bcc"),
                              QStringLiteral("subject"), QStringLiteral("body"),
                              QStringLiteral("contentType"), QStringLiteral("attachments"),
                              QStringLiteral("attachmentData")});
    SendMailArguments mail;
    mail.server = fields.requiredString(QStringLiteral("server"));
    const QUrl server(mail.server, QUrl::StrictMode);
    if (fields.has(QStringLiteral("server"))
        && (!server.isValid() || server.scheme() != QLatin1String("smtp") || server.host().isEmpty()
            || !server.path().isEmpty() || server.port() == 0))
        fields.fail(QStringLiteral("server"),
                    QCoreApplication::translate("hg::BuiltinArguments",
                                                "'%1' is not smtp://[USER@]HOST[:PORT]")
                        .arg(mail.server.left(300)));
    if (!server.password().isEmpty())
        fields.fail(QStringLiteral("server"),
                    QCoreApplication::translate(
                        "hg::BuiltinArguments",
                        "a password in the URL would be kept in the store in plain text; give it "
                        "with task add --password-stdin"));
    mail.security = fields.enumeration(QStringLiteral("tls"), SmtpSecurity::StartTls);
    if (mail.security == SmtpSecurity::None && server.isValid() && !isLoopback(server.host()))
        fields.fail(QStringLiteral("tls"),
                    QCoreApplication::translate(
                        "hg::BuiltinArguments",
                        "'none' sends the message and the password unencrypted: only to a server "
                        "on this machine (localhost)"));
    mail.caFile = absolutePath(fields, QStringLiteral("ca"), false);
    mail.passwordKey = fields.string(QStringLiteral("passwordKey"));
    mail.from = fields.requiredString(QStringLiteral("from"));
    if (fields.has(QStringLiteral("from")) && !mailaddress::isValid(mail.from))
        fields.fail(
            QStringLiteral("from"),
            QCoreApplication::translate("hg::BuiltinArguments", "'%1' is not an e-mail address")
                .arg(mail.from.left(300)));
    mail.to = addresses(fields, QStringLiteral("to"));
    mail.cc = addresses(fields, QStringLiteral("cc"));
    mail.bcc = addresses(fields, QStringLiteral("bcc"));
    const qsizetype recipients = mail.to.size() + mail.cc.size() + mail.bcc.size();
    if (recipients == 0)
        fields.fail(QStringLiteral("to"),
                    QCoreApplication::translate("hg::BuiltinArguments",
                                                "a message needs a recipient (to, cc or bcc)"));
    else if (recipients > 100)
        fields.fail(QStringLiteral("to"),
                    QCoreApplication::translate(
                        "hg::BuiltinArguments",
                        "%1 recipients; 100 at most (a list server is the place for more)")
                        .arg(recipients));
    mail.subject = fields.string(QStringLiteral("subject"));
    mail.body = fields.string(QStringLiteral("body"));
    const QString type = fields.string(QStringLiteral("contentType"), QStringLiteral("text/plain"));
    // pg_timetable's samples write "text/html; charset=UTF-8": the charset is always UTF-8.
    const QString mediaType = type.section(QLatin1Char(';'), 0, 0).trimmed().toLower();
    if (mediaType != QLatin1String("text/plain") && mediaType != QLatin1String("text/html"))
        fields.fail(QStringLiteral("contentType"),
                    QCoreApplication::translate("hg::BuiltinArguments",
                                                "'%1' is not text/plain or text/html")
                        .arg(type.left(100)));
    mail.html = mediaType == QLatin1String("text/html");
    mail.attachments = fields.stringList(QStringLiteral("attachments"));
    for (const QString &path : std::as_const(mail.attachments))
        if (!QDir::isAbsolutePath(path)) {
            fields.fail(
                QStringLiteral("attachments"),
                QCoreApplication::translate("hg::BuiltinArguments", "'%1' is not an absolute path")
                    .arg(path.left(300)));
            break;
        }
    refuseNul(fields, QStringLiteral("attachments"), mail.attachments);
    refuseNul(fields, QStringLiteral("ca"), {mail.caFile});
    // Only a SendMail's own password: a key of a channel's would send its password to any
    // server the task names.
    if (!mail.passwordKey.isEmpty()
        && !mail.passwordKey.startsWith(QLatin1String("hourglass-sendmail:")))
        fields.fail(QStringLiteral("passwordKey"),
                    QCoreApplication::translate("hg::BuiltinArguments",
                                                "names no SendMail password (give it with task "
                                                "add --password-stdin)"));
    const QJsonArray data = fields.array(QStringLiteral("attachmentData"));
    for (qsizetype i = 0; i < data.size(); ++i) {
        const QJsonObject item = data.at(i).toObject();
        const QString name = item.value(QLatin1String("name")).toString();
        const QByteArray encoded = item.value(QLatin1String("base64")).toString().toLatin1();
        const QByteArray::FromBase64Result decoded = QByteArray::fromBase64Encoding(
            encoded, QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
        if (!data.at(i).isObject() || name.trimmed().isEmpty() || !decoded) {
            fields.fail(QStringLiteral("attachmentData[%1]").arg(i),
                        QCoreApplication::translate(
                            "hg::BuiltinArguments",
                            "expected {\"name\": \"file name\", \"base64\": \"…\"}"));
            break;
        }
        mail.attachmentData << MailAttachmentData{name, decoded.decoded};
    }
    return mail;
}

CopyDataArguments readCopyData(Builtin builtin, JsonFieldReader &fields)
{
    const bool fromFile = builtin == Builtin::CopyFromFile;
    const bool toFile = builtin == Builtin::CopyToFile;
    const bool into = fromFile || builtin == Builtin::CopyFromProgram; // into the database
    QStringList keys{QStringLiteral("sql")};
    if (fromFile || toFile)
        keys << QStringLiteral("file");
    else
        keys << QStringLiteral("program") << QStringLiteral("arguments");
    if (toFile)
        keys << QStringLiteral("overwrite");
    fields.rejectUnknownKeys(keys);
    CopyDataArguments copy;
    copy.sql = fields.requiredString(QStringLiteral("sql"));
    // The data goes by the COPY protocol through this connection: a COPY … FROM 'file' would
    // read a file on the database server instead, as that server's user.
    static const QRegularExpression fromStdin(
        QStringLiteral(R"(^\s*COPY\b[\s\S]*\bFROM\s+STDIN\b)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression toStdout(QStringLiteral(R"(^\s*COPY\b[\s\S]*\bTO\s+STDOUT\b)"),
                                             QRegularExpression::CaseInsensitiveOption);
    if (fields.has(QStringLiteral("sql"))
        && !(into ? fromStdin : toStdout).match(copy.sql).hasMatch())
        fields.fail(QStringLiteral("sql"),
                    into ? QCoreApplication::translate("hg::BuiltinArguments",
                                                       "must be a COPY … FROM STDIN statement")
                         : QCoreApplication::translate("hg::BuiltinArguments",
                                                       "must be a COPY … TO STDOUT statement"));
    if (fromFile || toFile) {
        copy.file = absolutePath(fields, QStringLiteral("file"), true);
        copy.overwrite = fields.boolean(QStringLiteral("overwrite"), false);
    } else {
        copy.program = fields.requiredString(QStringLiteral("program"));
        if (fields.has(QStringLiteral("program")) && copy.program.trimmed().isEmpty())
            fields.fail(QStringLiteral("program"),
                        QCoreApplication::translate("hg::BuiltinArguments", "names no program"));
        copy.arguments = fields.stringList(QStringLiteral("arguments"));
        refuseNul(fields, QStringLiteral("program"), {copy.program});
        refuseNul(fields, QStringLiteral("arguments"), copy.arguments);
    }
    refuseNul(fields, QStringLiteral("file"), {copy.file});
    return copy;
}

} // namespace hg::builtinreaders
