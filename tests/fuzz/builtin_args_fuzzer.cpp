// libFuzzer target for the builtins' JSON arguments: no input may crash, hang or trip a
// sanitizer; an error names the builtin; an accepted argument carries the typed form that
// belongs to its builtin, within the documented bounds, and is accepted again as stored (a
// task's argument is checked when the task is defined and again when it runs).
#include "domain/builtinarguments.h"
#include "fuzzcheck.h"

#include <QDir>
#include <QJsonDocument>

#include <cstddef>
#include <cstdint>
#include <cstdio>

using namespace hg;

namespace {

// The index in BuiltinArguments::Arguments of the type that belongs to each builtin.
std::size_t argumentIndex(Builtin builtin)
{
    switch (builtin) {
    case Builtin::NoOp:
        return 0;
    case Builtin::Sleep:
        return 1;
    case Builtin::Log:
        return 2;
    case Builtin::HttpRequest:
        return 3;
    case Builtin::Download:
        return 4;
    case Builtin::CopyFile:
        return 5;
    case Builtin::Notify:
        return 6;
    case Builtin::SendMail:
        return 7;
    case Builtin::CopyFromFile:
    case Builtin::CopyToFile:
    case Builtin::CopyFromProgram:
    case Builtin::CopyToProgram:
        return 8;
    }
    HG_FUZZ_FAIL();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    static const QList<Builtin> builtins = BuiltinArguments::all();
    const Builtin builtin = builtins.at(data[0] % builtins.size());
    const QString name = enumName(builtin);
    const QString text =
        QString::fromUtf8(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const Result<BuiltinArguments> parsed = BuiltinArguments::parse(name, text);
    if (!parsed) {
        if (!parsed.error().message.startsWith(name)) {
            std::fprintf(stderr, "error without the builtin's name: %s\n",
                         qUtf8Printable(parsed.error().message));
            HG_FUZZ_FAIL();
        }
        return 0;
    }
    if (parsed->builtin() != builtin || parsed->arguments().index() != argumentIndex(builtin))
        HG_FUZZ_FAIL();
    switch (builtin) {
    case Builtin::Sleep: {
        const double seconds = parsed->as<SleepArguments>().seconds;
        if (!(seconds > 0 && seconds <= 86400))
            HG_FUZZ_FAIL();
        break;
    }
    case Builtin::Download:
        if (!QDir::isAbsolutePath(parsed->as<DownloadArguments>().destination))
            HG_FUZZ_FAIL();
        break;
    case Builtin::CopyFile: {
        const CopyFileArguments &copy = parsed->as<CopyFileArguments>();
        if (!QDir::isAbsolutePath(copy.source) || !QDir::isAbsolutePath(copy.destination))
            HG_FUZZ_FAIL();
        break;
    }
    case Builtin::SendMail: {
        // Somebody to send to, within the bound, and no address that could add a header.
        const SendMailArguments &mail = parsed->as<SendMailArguments>();
        const qsizetype recipients = mail.to.size() + mail.cc.size() + mail.bcc.size();
        if (recipients < 1 || recipients > 100)
            HG_FUZZ_FAIL();
        for (const QString &address : mail.to + mail.cc + mail.bcc + QStringList{mail.from})
            if (address.contains(QLatin1Char('\n')) || address.contains(QLatin1Char('\r')))
                HG_FUZZ_FAIL();
        break;
    }
    case Builtin::CopyFromFile:
    case Builtin::CopyToFile: {
        const CopyDataArguments &copy = parsed->as<CopyDataArguments>();
        if (!QDir::isAbsolutePath(copy.file)
            || !copy.sql.contains(QLatin1String("STD"), Qt::CaseInsensitive))
            HG_FUZZ_FAIL();
        break;
    }
    case Builtin::CopyFromProgram:
    case Builtin::CopyToProgram:
        if (parsed->as<CopyDataArguments>().program.isEmpty())
            HG_FUZZ_FAIL();
        break;
    default:
        break;
    }
    const QString stored =
        QString::fromUtf8(QJsonDocument(parsed->json()).toJson(QJsonDocument::Compact));
    const Result<BuiltinArguments> again = BuiltinArguments::parse(builtin, stored);
    if (!again || again->arguments().index() != parsed->arguments().index()
        || again->json() != parsed->json()) {
        std::fprintf(stderr, "%s accepted %s but not as stored, %s: %s\n", qUtf8Printable(name),
                     qUtf8Printable(text), qUtf8Printable(stored),
                     again ? "read differently" : qUtf8Printable(again.error().message));
        HG_FUZZ_FAIL();
    }
    return 0;
}
