#pragma once

#include "base/enumnames.h"
#include "base/result.h"
#include "httprequestspec.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <variant>

namespace hg {

// The BUILTIN tasks the engine provides; a task stores the name (its command).
enum class Builtin { NoOp, Sleep, Log, HttpRequest, Download, CopyFile, Notify };
HG_ENUM_NAMES(Builtin, {Builtin::NoOp, "NoOp"}, {Builtin::Sleep, "Sleep"}, {Builtin::Log, "Log"},
              {Builtin::HttpRequest, "HttpRequest"}, {Builtin::Download, "Download"},
              {Builtin::CopyFile, "CopyFile"}, {Builtin::Notify, "Notify"})

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
class BuiltinArguments final
{
    Q_DECLARE_TR_FUNCTIONS(hg::BuiltinArguments)

public:
    using Arguments = std::variant<std::monostate, SleepArguments, LogArguments, HttpRequestSpec,
                                   DownloadArguments, CopyFileArguments, NotifyArguments>;

    static QList<Builtin> all();
    static QStringList names();
    static QString example(Builtin builtin);
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
