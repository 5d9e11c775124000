#include "pgtimetablebuiltins.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace hg {
namespace {

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// pg_timetable reads its parameters with Go's encoding/json, which matches keys whatever
// their case: "ServerHost" is "serverhost".
QJsonObject lowerKeys(const QJsonObject &object)
{
    QJsonObject lowered;
    for (auto it = object.begin(); it != object.end(); ++it)
        lowered.insert(it.key().toLower(), it.value());
    return lowered;
}

QJsonObject withArgument(QJsonObject object, const QString &command, const QJsonObject &argument)
{
    object.insert(QStringLiteral("kind"), QStringLiteral("builtin"));
    object.insert(QStringLiteral("command"), command);
    object.insert(QStringLiteral("arguments"), QJsonArray{compact(argument)});
    return object;
}

QString fileNameOf(const QString &url)
{
    return QUrl(url).fileName();
}

} // namespace

Result<QList<QJsonObject>> PgTimetableBuiltins::toHourglass(const PgtTask &task,
                                                            const QString &label,
                                                            const QJsonObject &object,
                                                            const Import &import)
{
    const QString parameter = task.parameters.value(0);
    const QJsonDocument document = QJsonDocument::fromJson(parameter.toUtf8());
    const QJsonObject value = lowerKeys(document.object());
    const QString &command = task.command;
    const auto needsObject = [&]() -> Status {
        if (document.isObject())
            return {};
        return Error::invalid(tr("task %1: its %2 parameter is not a JSON object: %3")
                                  .arg(label, command, parameter.left(200)));
    };
    const auto absolute = [&](const QString &key, const QString &path) -> Status {
        if (QDir::isAbsolutePath(path))
            return {};
        return Error::invalid(tr("task %1: its %2 '%3' is relative to pg_timetable's working "
                                 "folder; give it as an absolute path")
                                  .arg(label, key, path));
    };
    const auto connected = [&](QJsonObject o) {
        // pg_timetable runs COPY on its own database: the remote's.
        o.insert(QStringLiteral("connection"), import.remoteName);
        return o;
    };
    if (command == QLatin1String("NoOp")) {
        QJsonObject o = object;
        o.insert(QStringLiteral("kind"), QStringLiteral("builtin"));
        o.insert(QStringLiteral("command"), command);
        o.insert(QStringLiteral("arguments"), QJsonArray());
        return QList<QJsonObject>{o};
    }
    if (command == QLatin1String("Sleep")) {
        const QJsonValue seconds =
            QJsonDocument::fromJson(QByteArrayLiteral("[") + parameter.toUtf8() + "]")
                .array()
                .at(0);
        return QList<QJsonObject>{withArgument(
            object, command, QJsonObject{{QStringLiteral("seconds"), seconds.toInt()}})};
    }
    if (command == QLatin1String("Log"))
        return QList<QJsonObject>{
            withArgument(object, command, QJsonObject{{QStringLiteral("message"), parameter}})};
    if (command == QLatin1String("SendMail")) {
        if (Status s = needsObject(); !s)
            return s.error();
        QUrl server;
        server.setScheme(QStringLiteral("smtp"));
        server.setHost(value.value(QLatin1String("serverhost")).toString());
        const int port = value.value(QLatin1String("serverport")).toInt(587);
        server.setPort(port);
        server.setUserName(value.value(QLatin1String("username")).toString());
        QJsonObject mail{
            {QStringLiteral("server"), server.toString()},
            {QStringLiteral("tls"),
             port == 465 ? QStringLiteral("implicit") : QStringLiteral("starttls")},
            {QStringLiteral("from"), value.value(QLatin1String("senderaddr"))},
            {QStringLiteral("to"), value.value(QLatin1String("toaddr")).toArray()},
            {QStringLiteral("cc"), value.value(QLatin1String("ccaddr")).toArray()},
            {QStringLiteral("bcc"), value.value(QLatin1String("bccaddr")).toArray()},
            {QStringLiteral("subject"), value.value(QLatin1String("subject"))},
            {QStringLiteral("body"), value.value(QLatin1String("msgbody"))},
            {QStringLiteral("contentType"),
             value.value(QLatin1String("contenttype")).toString(QStringLiteral("text/plain"))}};
        const QJsonArray attachments = value.value(QLatin1String("attachment")).toArray();
        for (const QJsonValue path : attachments)
            if (Status s = absolute(QStringLiteral("attachment"), path.toString()); !s)
                return s.error();
        if (!attachments.isEmpty())
            mail.insert(QStringLiteral("attachments"), attachments);
        QJsonArray data;
        for (const QJsonValue item : value.value(QLatin1String("attachmentdata")).toArray()) {
            const QJsonObject attachment = lowerKeys(item.toObject());
            data << QJsonObject{
                {QStringLiteral("name"), attachment.value(QLatin1String("name"))},
                {QStringLiteral("base64"), attachment.value(QLatin1String("base64data"))}};
        }
        if (!data.isEmpty())
            mail.insert(QStringLiteral("attachmentData"), data);
        if (const QString password = value.value(QLatin1String("password")).toString();
            !password.isEmpty()) {
            if (!import.keepPassword)
                return Error::invalid(
                    tr("task %1: its SendMail password has nowhere to be kept").arg(label));
            const Result<QString> key = import.keepPassword(password);
            if (!key)
                return Error::invalid(tr("task %1: its SendMail password cannot be kept: %2")
                                          .arg(label, key.error().message));
            mail.insert(QStringLiteral("passwordKey"), key.value());
            if (import.notes)
                *import.notes
                    << tr("task %1: its SendMail password is kept apart from the store, in "
                          "the keychain (or a file only you may read), as %2; pg_timetable "
                          "keeps it in timetable.parameter in plain text")
                           .arg(label, key.value());
        }
        if (import.notes && port != 465)
            *import.notes << tr("task %1: Hourglass sends by STARTTLS and checks the server's "
                                "certificate; pg_timetable went on in clear text where the server "
                                "offered no STARTTLS")
                                 .arg(label);
        return QList<QJsonObject>{withArgument(object, command, mail)};
    }
    if (command == QLatin1String("Download")) {
        if (Status s = needsObject(); !s)
            return s.error();
        const QJsonArray urls = value.value(QLatin1String("fileurls")).toArray();
        const QString destination = value.value(QLatin1String("destpath")).toString();
        if (urls.isEmpty())
            return Error::invalid(tr("task %1: its Download names no fileurls").arg(label));
        if (Status s = absolute(QStringLiteral("destpath"), destination); !s)
            return s.error();
        // A folder (pg_timetable's when it exists there, and always with several URLs): each
        // file by the name at the end of its URL.
        const bool folder = urls.size() > 1 || destination.endsWith(QLatin1Char('/'))
                            || QFileInfo(destination).isDir();
        QList<QJsonObject> tasks;
        for (qsizetype i = 0; i < urls.size(); ++i) {
            const QString url = urls.at(i).toString();
            if (folder && fileNameOf(url).isEmpty())
                return Error::invalid(tr("task %1: the URL %2 names no file to save it as")
                                          .arg(label, url.left(300)));
            QJsonObject o = object;
            if (urls.size() > 1)
                o.insert(QStringLiteral("name"), QStringLiteral("%1-%2").arg(label).arg(i + 1));
            tasks << withArgument(
                o, command,
                QJsonObject{{QStringLiteral("url"), url},
                            {QStringLiteral("destination"),
                             folder ? QDir(destination).filePath(fileNameOf(url)) : destination},
                            {QStringLiteral("overwrite"), true}});
        }
        if (urls.size() > 1 && import.notes)
            *import.notes << tr("task %1: its %2 URLs are downloaded one after another, by %3-1 "
                                "to %3-%2")
                                 .arg(label)
                                 .arg(urls.size());
        return tasks;
    }
    const bool fileCopy =
        command == QLatin1String("CopyFromFile") || command == QLatin1String("CopyToFile");
    if (fileCopy || command == QLatin1String("CopyFromProgram")
        || command == QLatin1String("CopyToProgram")) {
        if (Status s = needsObject(); !s)
            return s.error();
        QJsonObject copy{{QStringLiteral("sql"), value.value(QLatin1String("sql"))}};
        if (fileCopy) {
            const QString file = value.value(QLatin1String("filename")).toString();
            if (Status s = absolute(QStringLiteral("filename"), file); !s)
                return s.error();
            copy.insert(QStringLiteral("file"), file);
            if (command == QLatin1String("CopyToFile"))
                copy.insert(QStringLiteral("overwrite"), true); // pg_timetable truncates it
        } else {
            copy.insert(QStringLiteral("program"), value.value(QLatin1String("cmd")));
            copy.insert(QStringLiteral("arguments"), value.value(QLatin1String("args")).toArray());
        }
        return QList<QJsonObject>{withArgument(connected(object), command, copy)};
    }
    if (command == QLatin1String("Shutdown"))
        return Error::invalid(
            tr("task %1: pg_timetable's Shutdown ends the pg_timetable process (exit code 5, not "
               "restarted); an Hourglass engine serves every chain of its store and is stopped by "
               "its service manager (systemctl stop hourglass), not by a task")
                .arg(label));
    return Error::invalid(
        tr("task %1: pg_timetable has no builtin '%2'").arg(label, command.left(100)));
}

Status PgTimetableBuiltins::toPgTimetable(const QJsonObject &task, PgtTask &out, QStringList *notes)
{
    const QString command = task.value(QStringLiteral("command")).toString();
    const QString name = task.value(QStringLiteral("name")).toString();
    const QJsonObject argument =
        QJsonDocument::fromJson(
            task.value(QStringLiteral("arguments")).toArray().at(0).toString().toUtf8())
            .object();
    out.kind = QStringLiteral("BUILTIN");
    out.command = command;
    const auto parameter = [&out](const QJsonObject &value) {
        out.parameters << compact(value);
    };
    if (command == QLatin1String("NoOp"))
        return {};
    if (command == QLatin1String("Sleep")) {
        out.parameters << QString::number(argument.value(QStringLiteral("seconds")).toInt());
        return {};
    }
    if (command == QLatin1String("Log")) {
        out.parameters << QString::fromUtf8(
                              QJsonDocument(QJsonArray{argument.value(QStringLiteral("message"))})
                                  .toJson(QJsonDocument::Compact))
                              .mid(1)
                              .chopped(1);
        return {};
    }
    if (command == QLatin1String("SendMail")) {
        const QUrl server(argument.value(QStringLiteral("server")).toString());
        const QString tls =
            argument.value(QStringLiteral("tls")).toString(QStringLiteral("starttls"));
        const int port = server.port(tls == QLatin1String("implicit") ? 465 : 587);
        if ((tls == QLatin1String("implicit")) != (port == 465))
            return Error::invalid(tr("task %1: pg_timetable uses implicit TLS on port 465 and "
                                     "only there (this one: %2 on port %3)")
                                      .arg(name, tls)
                                      .arg(port));
        QJsonObject mail{
            {QStringLiteral("serverhost"), server.host()},
            {QStringLiteral("serverport"), port},
            {QStringLiteral("senderaddr"), argument.value(QStringLiteral("from"))},
            {QStringLiteral("toaddr"), argument.value(QStringLiteral("to")).toArray()},
            {QStringLiteral("ccaddr"), argument.value(QStringLiteral("cc")).toArray()},
            {QStringLiteral("bccaddr"), argument.value(QStringLiteral("bcc")).toArray()},
            {QStringLiteral("subject"), argument.value(QStringLiteral("subject"))},
            {QStringLiteral("msgbody"), argument.value(QStringLiteral("body"))},
            {QStringLiteral("contenttype"),
             argument.value(QStringLiteral("contentType")).toString(QStringLiteral("text/plain"))}};
        if (!server.userName().isEmpty())
            mail.insert(QStringLiteral("username"), server.userName());
        if (argument.contains(QStringLiteral("attachments")))
            mail.insert(QStringLiteral("attachment"),
                        argument.value(QStringLiteral("attachments")));
        QJsonArray data;
        for (const QJsonValue item : argument.value(QStringLiteral("attachmentData")).toArray())
            data << QJsonObject{
                {QStringLiteral("name"), item.toObject().value(QStringLiteral("name"))},
                {QStringLiteral("base64data"), item.toObject().value(QStringLiteral("base64"))}};
        if (!data.isEmpty())
            mail.insert(QStringLiteral("attachmentdata"), data);
        if (notes && argument.contains(QStringLiteral("passwordKey")))
            *notes << tr("task %1: its password stays here (pg_timetable would keep it in "
                         "timetable.parameter in plain text); add \"password\" to that row "
                         "yourself if the server needs one")
                          .arg(name);
        parameter(mail);
        return {};
    }
    if (command == QLatin1String("Download")) {
        if (!argument.value(QStringLiteral("headers")).toObject().isEmpty())
            return Error::invalid(
                tr("task %1: its Download sends headers; pg_timetable's cannot").arg(name));
        parameter(QJsonObject{
            {QStringLiteral("workersnum"), 1},
            {QStringLiteral("fileurls"), QJsonArray{argument.value(QStringLiteral("url"))}},
            {QStringLiteral("destpath"), argument.value(QStringLiteral("destination"))}});
        return {};
    }
    if (command == QLatin1String("CopyFromFile") || command == QLatin1String("CopyToFile")) {
        parameter(
            QJsonObject{{QStringLiteral("sql"), argument.value(QStringLiteral("sql"))},
                        {QStringLiteral("filename"), argument.value(QStringLiteral("file"))}});
        return {};
    }
    if (command == QLatin1String("CopyFromProgram") || command == QLatin1String("CopyToProgram")) {
        parameter(
            QJsonObject{{QStringLiteral("sql"), argument.value(QStringLiteral("sql"))},
                        {QStringLiteral("cmd"), argument.value(QStringLiteral("program"))},
                        {QStringLiteral("args"), argument.value(QStringLiteral("arguments"))}});
        return {};
    }
    return Error::invalid(
        tr("task %1 is the builtin %2, which pg_timetable does not have").arg(name, command));
}

} // namespace hg
