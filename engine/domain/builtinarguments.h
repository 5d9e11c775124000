#pragma once

#include "base/enumnames.h"
#include "base/result.h"
#include "httprequestspec.h"
#include "notification.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <variant>

namespace hg {

// The BUILTIN tasks the engine provides; a task stores the name (its command).
enum class Builtin {
    NoOp,
    Sleep,
    Log,
    HttpRequest,
    Download,
    CopyFile,
    Notify,
    SendMail,
    CopyFromFile,
    CopyToFile,
    CopyFromProgram,
    CopyToProgram
};
HG_ENUM_NAMES(Builtin, {Builtin::NoOp, "NoOp"}, {Builtin::Sleep, "Sleep"}, {Builtin::Log, "Log"},
              {Builtin::HttpRequest, "HttpRequest"}, {Builtin::Download, "Download"},
              {Builtin::CopyFile, "CopyFile"}, {Builtin::Notify, "Notify"},
              {Builtin::SendMail, "SendMail"}, {Builtin::CopyFromFile, "CopyFromFile"},
              {Builtin::CopyToFile, "CopyToFile"}, {Builtin::CopyFromProgram, "CopyFromProgram"},
              {Builtin::CopyToProgram, "CopyToProgram"})

// The typed argument of each builtin (NoOp takes none, HttpRequest takes an HttpRequestSpec).
struct SleepArguments
{
    double seconds = 0; // 0 < seconds <= 86400
};
struct LogArguments
{
    QString message;
};
struct DownloadArguments
{
    HttpRequestSpec request; // url and headers
    QString destination;     // absolute
    bool overwrite = false;
};
struct CopyFileArguments
{
    QString source; // absolute
    QString destination;
    bool overwrite = false;
};
struct NotifyArguments
{
    QString message;
    QString title;
};
struct MailAttachmentData
{
    QString name;
    QByteArray content;
};
// One message through an SMTP server of its own (pg_timetable's SendMail), not a channel: no
// flood control, no route; its password kept as a channel's is (ChannelSecrets).
struct SendMailArguments
{
    QString server; // smtp://[USER@]HOST[:PORT]
    SmtpSecurity security = SmtpSecurity::StartTls;
    QString caFile;
    QString passwordKey; // the ChannelSecrets key of {"password": …}; '' = no password
    QString from;
    QStringList to;
    QStringList cc;
    QStringList bcc;
    QString subject;
    QString body;
    bool html = false;
    QStringList attachments; // absolute paths, read when it runs
    QList<MailAttachmentData> attachmentData;
};
// How a SendMail ended: the server's answer, or what failed.
struct SendMailResult
{
    bool sent = false;
    QString answer;
};
// The four COPY builtins (pg_timetable's): the statement runs on the task's connection (a
// PostgreSQL one, or the store's), its data from or into a file or a program's stdout/stdin.
struct CopyDataArguments
{
    QString sql;            // the whole COPY … FROM STDIN or COPY … TO STDOUT statement
    QString file;           // absolute (CopyFromFile, CopyToFile)
    bool overwrite = false; // CopyToFile
    QString program;        // CopyFromProgram, CopyToProgram: run directly, no shell
    QStringList arguments;
};

// A builtin with its JSON argument, parsed once into its typed form. Checked when a task is
// defined (so a typo is refused at once) and again, after ${…} substitution, when it runs;
// the executors then read the typed fields, never the JSON or the name.
//   NoOp        {}
//   Sleep       {"seconds": 5}                                   0 < seconds <= 86400
//   Log         {"message": "text"}
//   HttpRequest {"url": "https://…", "method", "headers", "body", "expect_status"}
//   Download    {"url": "https://…", "destination": "/abs/path", "overwrite": false,
//                "headers": {…}}
//   CopyFile    {"source": "/abs/path", "destination": "/abs/path", "overwrite": false}
//   Notify      {"message": "text", "title": "text"}
//   SendMail    {"server": "smtp://[user@]host[:port]", "tls": "starttls|implicit|none",
//                "ca": "/abs", "passwordKey": "key", "from": "a@b", "to": [...], "cc": [...],
//                "bcc": [...], "subject": "…", "body": "…", "contentType": "text/plain|text/html",
//                "attachments": ["/abs/path"], "attachmentData": [{"name": "…", "base64": "…"}]}
//   CopyFromFile    {"sql": "COPY t FROM STDIN …", "file": "/abs/path"}
//   CopyToFile      {"sql": "COPY t TO STDOUT …", "file": "/abs/path", "overwrite": false}
//   CopyFromProgram {"sql": "COPY t FROM STDIN …", "program": "name", "arguments": [...]}
//   CopyToProgram   {"sql": "COPY t TO STDOUT …", "program": "name", "arguments": [...]}
class BuiltinArguments final
{
    Q_DECLARE_TR_FUNCTIONS(hg::BuiltinArguments)

public:
    using Arguments = std::variant<std::monostate, SleepArguments, LogArguments, HttpRequestSpec,
                                   DownloadArguments, CopyFileArguments, NotifyArguments,
                                   SendMailArguments, CopyDataArguments>;

    static QList<Builtin> all();
    static QStringList names();
    static QString example(Builtin builtin);
    // The COPY builtins, which run on a task's connection.
    static bool isCopy(Builtin builtin);
    static bool isCopy(const QString &builtin);
    // Errors name the builtin and the field: `Sleep.seconds: expected a number`; an unknown
    // name lists the known ones.
    static Result<BuiltinArguments> parse(const QString &builtin, const QString &argumentText);
    static Result<BuiltinArguments> parse(Builtin builtin, const QString &argumentText);

    Builtin builtin() const { return m_builtin; }
    QString name() const { return enumName(m_builtin); }
    // The argument as written, for logs and for keys a form has no field for.
    const QJsonObject &json() const { return m_json; }
    const Arguments &arguments() const { return m_arguments; }
    // The typed argument; T must be the one that belongs to builtin().
    template<typename T>
    const T &as() const
    {
        return std::get<T>(m_arguments);
    }

private:
    BuiltinArguments(Builtin builtin, QJsonObject json, Arguments arguments);

    Builtin m_builtin = Builtin::NoOp;
    QJsonObject m_json;
    Arguments m_arguments;
};

} // namespace hg
