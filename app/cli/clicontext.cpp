#include "clicontext.h"

#include "base/terminaltext.h"
#include "cron/isotime.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <limits>

namespace hg {

CliContext::CliContext(QTextStream &out, QTextStream &err, QString storeOverride)
    : m_out(out)
    , m_err(err)
    , m_storeOverride(std::move(storeOverride))
{}

CliContext::~CliContext() = default;

bool CliContext::parse(QCommandLineParser &parser, const QStringList &args, const QString &synopsis,
                       bool listing)
{
    const QCommandLineOption db(QStringLiteral("db"),
                                QStringLiteral("Store: a SQLite file or a "
                                               "postgresql:// URL."),
                                QStringLiteral("PATH|URL"));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    parser.addOption(db);
    parser.addOption(help);
    if (listing)
        parser.addOption(json);
    if (!parser.parse(QStringList{QStringLiteral("hourglass")} + args)) {
        // "-1" reads as the options -1: said as the number it is, not "unknown option '1'".
        for (const QString &arg : args)
            if (arg.size() > 1 && arg.at(0) == QLatin1Char('-')
                && std::all_of(arg.cbegin() + 1, arg.cend(),
                               [](QChar c) { return c >= u'0' && c <= u'9'; })) {
                m_exitCode = usage(QStringLiteral("'%1' is a negative number, and no id or "
                                                  "count here is below 1")
                                       .arg(arg.left(40)));
                return false;
            }
        m_exitCode = usage(terminaltext::escaped(parser.errorText()));
        return false;
    }
    if (parser.isSet(help)) {
        m_out << "Usage: hourglass " << synopsis << "\n\n"
              << parser.helpText().section(QLatin1Char('\n'), 2);
        m_out.flush();
        m_exitCode = ExitOk;
        return false;
    }
    if (parser.isSet(db))
        m_storeOverride = parser.value(db);
    m_json = listing && parser.isSet(json);
    return true;
}

bool CliContext::expectPositionals(const QCommandLineParser &parser, const QStringList &names,
                                   int optionalTail)
{
    const qsizetype given = parser.positionalArguments().size();
    const qsizetype required = names.size() - optionalTail;
    if (given < required) {
        m_exitCode = usage(QStringLiteral("missing %1").arg(names.at(given)));
        return false;
    }
    if (given > names.size()) {
        m_exitCode = usage(QStringLiteral("unexpected argument '%1'")
                               .arg(parser.positionalArguments().at(names.size())));
        return false;
    }
    return true;
}

Result<Store *> CliContext::store(const Store::Options &options)
{
    if (!m_store) {
        const Result<StoreLocation> location = StoreLocation::resolve(m_storeOverride);
        if (!location)
            return location.error();
        Result<std::unique_ptr<Store>> opened =
            Store::open(location.value(), QStringLiteral("cli"), options);
        if (!opened && opened.error().kind == ErrorKind::Damaged)
            return Error::damaged(opened.error().message + damageAdvice());
        if (!opened)
            return opened.error();
        m_store = std::move(opened.value());
    }
    return m_store.get();
}

QString CliContext::localTimeText(qint64 ms)
{
    return isoWithOffset(QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::systemTimeZone()));
}

QString CliContext::isoText(const QDateTime &time, const QString &whenNone)
{
    return time.isValid() ? time.toString(Qt::ISODate) : whenNone;
}

QString CliContext::damageAdvice()
{
    return QStringLiteral("; `hourglass export --output FILE` saves what can still be read, "
                          "`hourglass restore BACKUP` puts a backup in its place");
}

Store *CliContext::prepare(QCommandLineParser &parser, const QStringList &args,
                           const QString &synopsis, const QStringList &positionals, bool listing,
                           int optionalTail)
{
    if (!parse(parser, args, synopsis, listing)
        || !expectPositionals(parser, positionals, optionalTail))
        return nullptr;
    const Result<Store *> opened = store();
    if (!opened) {
        fail(opened.error());
        return nullptr;
    }
    return opened.value();
}

Result<QString> CliContext::secretFromStdin(const QString &option, const QString &what)
{
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return Error::runtime(QStringLiteral("cannot read the %1 from stdin").arg(what));
    // A secret is a line; 64 KiB is far more than any is (a 50 MB one went into the secrets
    // file whole, helper-7).
    constexpr qint64 longest = qint64(64) * 1024;
    QByteArray line = in.readLine(longest + 2);
    const bool cut = line.size() > longest && !line.endsWith('\n');
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (cut || line.size() > longest)
        return Error::invalid(QStringLiteral("%1: the %2 is longer than 64 KiB").arg(option, what));
    if (line.isEmpty())
        return Error::invalid(QStringLiteral("%1: stdin gave no %2").arg(option, what));
    if (line.contains('\0'))
        return Error::invalid(QStringLiteral("%1: the %2 holds a NUL byte").arg(option, what));
    return QString::fromUtf8(line);
}

Result<QDateTime> CliContext::timeOption(const QCommandLineParser &parser,
                                         const QCommandLineOption &option)
{
    const QString text = parser.value(option);
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDate::fromString(text, Qt::ISODate).startOfDay();
    if (!time.isValid())
        return Error::invalid(QStringLiteral("--%1: '%2' is not an ISO 8601 date and time")
                                  .arg(option.names().constFirst(), text));
    return time;
}

bool CliContext::intOption(const QCommandLineParser &parser, const QCommandLineOption &option,
                           int &value, int minimum, int maximum)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    const QString text = parser.value(option);
    // Digits alone: " 5" and "5\n" were taken (a value cut from a file or typed with a stray
    // space; helper-11), "+5" too.
    const bool digits = !text.isEmpty() && (text.at(0).isDigit() || text.at(0) == u'-')
                        && text == text.trimmed() && !text.contains(u'+');
    const qint64 parsed = digits ? text.toLongLong(&ok) : 0;
    // Digits past 64 bits are a number too, only far out of range.
    const bool huge = digits && !ok
                      && std::all_of(text.cbegin() + (text.at(0) == u'-' ? 1 : 0), text.cend(),
                                     [](QChar c) { return c.isDigit(); });
    if (huge || (ok && (parsed < minimum || parsed > maximum))) {
        usage(QStringLiteral("--%1: %2 is out of range (%3 to %4)")
                  .arg(option.names().constFirst(), text)
                  .arg(minimum)
                  .arg(maximum));
        return false;
    }
    if (!ok) {
        usage(QStringLiteral("--%1: '%2' is not a whole number of at least %3")
                  .arg(option.names().constFirst(), text)
                  .arg(minimum));
        return false;
    }
    value = int(parsed);
    return true;
}

int CliContext::fail(const Error &error)
{
    // One line, control characters escaped: a message may quote a server, a file or a name
    // typed with a tab in it (shown as \t: a tab in a quoted name looks like spaces).
    m_err << "hourglass: "
          << terminaltext::escaped(QString(error.message)
                                       .replace(QLatin1Char('\n'), QLatin1String("; "))
                                       .replace(QLatin1Char('\t'), QLatin1String("\\t")))
          << '\n';
    m_err.flush();
    // With --json a script also gets the error as one object on stdout, with where it lies.
    if (m_json) {
        QJsonObject object{{QStringLiteral("error"), error.message}};
        object.insert(QStringLiteral("field"),
                      error.field.isEmpty() ? QJsonValue() : QJsonValue(error.field));
        object.insert(QStringLiteral("column"),
                      error.column > 0 ? QJsonValue(error.column) : QJsonValue());
        printJson(object);
    }
    m_exitCode = error.isUserError() ? ExitUsage : ExitFailure;
    return m_exitCode;
}

int CliContext::usage(const QString &message)
{
    m_err << "hourglass: " << terminaltext::escaped(message) << " (see --help)\n";
    m_err.flush();
    m_exitCode = ExitUsage;
    return m_exitCode;
}

void CliContext::printJson(const QJsonValue &value)
{
    const QJsonDocument document =
        value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    m_out << document.toJson(QJsonDocument::Indented);
    m_out.flush();
}

void CliContext::printTable(const QStringList &headers, const QList<QStringList> &rows)
{
    QList<QStringList> escapedRows;
    escapedRows.reserve(rows.size());
    for (const QStringList &row : rows) {
        QStringList cells;
        for (const QString &cell : row)
            cells << terminaltext::escaped(cell);
        escapedRows << cells;
    }
    QList<qsizetype> widths;
    for (const QString &header : headers)
        widths << header.size();
    for (const QStringList &row : std::as_const(escapedRows)) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = qMax(widths[i], row.at(i).size());
    }
    const auto printRow = [&](const QStringList &cells) {
        QString line;
        for (qsizetype i = 0; i < cells.size(); ++i)
            line +=
                i + 1 < cells.size() ? cells.at(i).leftJustified(widths.at(i) + 2) : cells.at(i);
        m_out << line << '\n';
    };
    printRow(headers);
    for (const QStringList &row : std::as_const(escapedRows))
        printRow(row);
    m_out.flush();
}

} // namespace hg
