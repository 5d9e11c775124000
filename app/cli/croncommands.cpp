#include "clicontext.h"
#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "cron/isotime.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>

namespace hg {
namespace {

struct CronOptions
{
    QCommandLineOption dialect{QStringLiteral("dialect"), enumChoices<CronDialect>(),
                               QStringLiteral("DIALECT")};
    QCommandLineOption zone{QStringLiteral("tz"),
                            QStringLiteral("IANA time zone (default: this machine's)."),
                            QStringLiteral("ZONE")};
};

// Reads EXPR, --dialect and --tz; false when an error was reported.
bool readExpression(CliContext &context, const QCommandLineParser &parser,
                    const CronOptions &options, std::optional<CronExpression> &expression,
                    QTimeZone &zone)
{
    CronDialect dialect = CronDialect::Auto;
    if (!context.enumOption(parser, options.dialect, dialect))
        return false;
    zone = QTimeZone::systemTimeZone();
    if (parser.isSet(options.zone)) {
        zone = QTimeZone(parser.value(options.zone).toUtf8());
        if (!zone.isValid()) {
            context.fail(Error::invalid(
                QStringLiteral("unknown time zone '%1'").arg(parser.value(options.zone))));
            return false;
        }
    }
    Result<CronExpression> parsed =
        CronExpression::parse(parser.positionalArguments().at(0), dialect);
    if (!parsed) {
        context.fail(parsed.error());
        return false;
    }
    expression = std::move(parsed.value());
    return true;
}

int cronNext(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    CronOptions options;
    const QCommandLineOption from(QStringLiteral("from"),
                                  QStringLiteral("Start after this time (default: now); without "
                                                 "an offset it is read in --tz."),
                                  QStringLiteral("ISO8601"));
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("How many fire times (default 5)."),
                                   QStringLiteral("N"));
    const QCommandLineOption dst(
        QStringLiteral("dst"),
        QStringLiteral("What a DST change does (as for schedule add): run-after|skip, once|both, "
                       "or cronie."),
        QStringLiteral("RULE"));
    parser.addOptions({options.dialect, options.zone, from, count, dst});
    if (!context.parse(parser, args,
                       QStringLiteral("cron next EXPR [--dialect DIALECT] [--tz ZONE] "
                                      "[--from ISO8601] [--count N] [--dst RULE] [--json]"),
                       true)
        || !context.expectPositionals(parser, {QStringLiteral("EXPR")}))
        return context.exitCode();
    std::optional<CronExpression> expression;
    QTimeZone zone;
    if (!readExpression(context, parser, options, expression, zone))
        return context.exitCode();
    int howMany = 5;
    if (!context.intOption(parser, count, howMany, 1))
        return context.exitCode();
    QDateTime start = QDateTime::currentDateTimeUtc();
    if (parser.isSet(from)) {
        start = QDateTime::fromString(parser.value(from), Qt::ISODateWithMs);
        if (!start.isValid())
            return context.usage(QStringLiteral("--from: '%1' is not an ISO 8601 date and time")
                                     .arg(parser.value(from)));
        if (start.timeSpec() == Qt::LocalTime) // no offset written: a wall time in --tz
            start = QDateTime(start.date(), start.time(), zone);
    }
    const std::optional<DstPolicy> policy = DstPolicy::fromText(parser.value(dst));
    if (!policy)
        return context.usage(QStringLiteral("--dst: '%1' is not a DST rule; use run-after or "
                                            "skip, once or both (comma-separated), or cronie")
                                 .arg(parser.value(dst)));
    QStringList fires;
    for (int i = 0; i < howMany; ++i) {
        const std::optional<QDateTime> fire = expression->next(start, zone, *policy);
        if (!fire)
            break;
        fires << isoWithOffset(*fire);
        start = *fire;
    }
    if (context.json()) {
        context.printJson(QJsonArray::fromStringList(fires));
        return ExitOk;
    }
    QTextStream &out = context.out();
    for (const QString &fire : std::as_const(fires))
        out << fire << '\n';
    out.flush();
    return ExitOk;
}

int cronExplain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    CronOptions options;
    parser.addOptions({options.dialect, options.zone});
    if (!context.parse(parser, args,
                       QStringLiteral("cron explain EXPR [--dialect DIALECT] [--tz ZONE] [--json]"),
                       true)
        || !context.expectPositionals(parser, {QStringLiteral("EXPR")}))
        return context.exitCode();
    std::optional<CronExpression> expression;
    QTimeZone zone;
    if (!readExpression(context, parser, options, expression, zone))
        return context.exitCode();
    const QString zoneName =
        parser.isSet(options.zone)
            ? QString::fromUtf8(zone.id())
            : QStringLiteral("local time (%1)").arg(QString::fromUtf8(zone.id()));
    const CronExplainer explainer(*expression);
    const QString dialect = expression->detectionNote().isEmpty()
                                ? enumName(expression->dialect())
                                : expression->detectionNote() + QLatin1String(", detected");
    if (context.json()) {
        context.printJson(QJsonObject{
            {QStringLiteral("description"), explainer.describe(zoneName)},
            {QStringLiteral("dialect"), enumName(expression->dialect())},
            {QStringLiteral("detection"), expression->detectionNote().isEmpty()
                                              ? QJsonValue()
                                              : QJsonValue(expression->detectionNote())},
            {QStringLiteral("fields"), QJsonArray::fromStringList(expression->fields())},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(explainer.warnings())}});
        return ExitOk;
    }
    QTextStream &out = context.out();
    out << explainer.describe(zoneName) << '\n';
    out << "dialect: " << dialect << '\n';
    if (!expression->fields().isEmpty())
        out << "fields: " << expression->fields().join(QLatin1Char(' ')) << '\n';
    for (const QString &warning : explainer.warnings())
        out << "warning: " << warning << '\n';
    out.flush();
    return ExitOk;
}

} // namespace

int runCronCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("next"))
        return cronNext(context, args);
    if (verb == QLatin1String("explain"))
        return cronExplain(context, args);
    return context.usage(
        QStringLiteral("unknown command 'cron %1'; use next or explain").arg(verb));
}

} // namespace hg
