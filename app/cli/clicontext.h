#pragma once

#include "base/enumnames.h"
#include "base/result.h"
#include "store/store.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonValue>
#include <QStringList>
#include <QTextStream>

#include <limits>
#include <memory>

namespace hg {

// Exit codes of every subcommand.
enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

// What one subcommand needs: its streams, the store (opened on first use), and the shared
// rules for parsing, printing and reporting errors as one line on stderr.
class CliContext final
{
public:
    CliContext(QTextStream &out, QTextStream &err, QString storeOverride);
    ~CliContext();
    Q_DISABLE_COPY_MOVE(CliContext)

    // Adds --db, --help (and --json when listing) to the parser and parses args.
    // On false the caller returns exitCode(): an error or the help text was printed.
    bool parse(QCommandLineParser &parser, const QStringList &args, const QString &synopsis,
               bool listing = false);
    bool json() const { return m_json; }
    int exitCode() const { return m_exitCode; }

    // Positional arguments: exactly `count` of them, named in the message when missing.
    bool expectPositionals(const QCommandLineParser &parser, const QStringList &names,
                           int optionalTail = 0);

    // A damaged SQLite store is refused (exit 1, naming the file, the damage and the ways
    // out) unless the options open it read-only.
    Result<Store *> store(const Store::Options &options = {});
    // What a person can do about a damaged store, appended to the message naming it.
    static QString damageAdvice();

    // parse() + expectPositionals() + store(): nullptr means "return exitCode()".
    Store *prepare(QCommandLineParser &parser, const QStringList &args, const QString &synopsis,
                   const QStringList &positionals, bool listing = false, int optionalTail = 0);

    // Option values: false (with the error reported) when the text is not acceptable.
    bool intOption(const QCommandLineParser &parser, const QCommandLineOption &option, int &value,
                   int minimum = 0, int maximum = std::numeric_limits<int>::max());
    // An ISO 8601 time; a date alone means its midnight, no offset the local time zone.
    static Result<QDateTime> timeOption(const QCommandLineParser &parser,
                                        const QCommandLineOption &option);
    // One line of stdin for `option` (--password-stdin, --secret-stdin…): a secret never
    // passes argv, where every user of the machine reads it in ps. `what` names it in the
    // error when stdin gives nothing.
    static Result<QString> secretFromStdin(const QString &option, const QString &what);
    // A stored instant (ms since the epoch) as ISO 8601 in this machine's zone, with offset.
    static QString localTimeText(qint64 ms);
    // A time read from a remote server as ISO 8601; `whenNone` for an invalid (absent) one.
    static QString isoText(const QDateTime &time, const QString &whenNone = {});
    template<typename E>
    bool enumOption(const QCommandLineParser &parser, const QCommandLineOption &option, E &value)
    {
        if (!parser.isSet(option))
            return true;
        const QString text = parser.value(option);
        if (const auto parsed = enumFromString<E>(text)) {
            value = *parsed;
            return true;
        }
        usage(QStringLiteral("--%1: '%2' is not one of %3")
                  .arg(option.names().constFirst(), text, enumChoices<E>()));
        return false;
    }

    int fail(const Error &error);
    int usage(const QString &message);
    void printJson(const QJsonValue &value);
    void printTable(const QStringList &headers, const QList<QStringList> &rows);
    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }
    // The --db value (or the one given before the command), for code that opens its own store.
    QString storeArgument() const { return m_storeOverride; }

private:
    QTextStream &m_out;
    QTextStream &m_err;
    QString m_storeOverride;
    std::unique_ptr<Store> m_store;
    bool m_json = false;
    int m_exitCode = ExitOk;
};

} // namespace hg
