#include "clicontext.h"
#include "cron/pginterval.h"
#include "domain/alertrulesvalidator.h"
#include "scheduler/clockwatch.h"
#include "scheduler/scheduleplan.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>

namespace hg {
namespace {

QString lengthText(qint64 ms)
{
    return ms > 0 ? ClockWatch::describeLength(ms) : QStringLiteral("-");
}

QString limitText(qint64 ms, double factor)
{
    if (ms > 0)
        return ClockWatch::describeLength(ms);
    if (factor > 0)
        return QStringLiteral("%1x the median").arg(QString::number(factor, 'g', 3));
    return QStringLiteral("-");
}

// "90s", "10 min", "1h30m" (as @every takes them) or, when relative is allowed, "3x".
bool limitOption(CliContext &context, const QCommandLineParser &parser,
                 const QCommandLineOption &option, bool relative, qint64 &ms, double &factor)
{
    if (!parser.isSet(option))
        return true;
    const QString text = parser.value(option).trimmed();
    const QString name = option.names().constFirst();
    if (relative && text.endsWith(QLatin1Char('x'), Qt::CaseInsensitive)) {
        bool ok = false;
        const double value = text.chopped(1).toDouble(&ok);
        if (!ok || !(value > 0) || !qIsFinite(value)) { // NaN and inf too
            context.usage(
                QStringLiteral("--%1: '%2' is not a factor above 0 (such as 3x)").arg(name, text));
            return false;
        }
        ms = 0;
        factor = value;
        return true;
    }
    if (text == QLatin1String("0") || text == QLatin1String("off")) {
        ms = 0;
        factor = 0;
        return true;
    }
    const Result<qint64> seconds = PgInterval::parseSeconds(text);
    if (!seconds || seconds.value() <= 0) {
        context.usage(
            QStringLiteral("--%1: '%2' is not a length of time (such as 90s, 10 min, "
                           "1h30m%3), nor off")
                .arg(name, text, relative ? QStringLiteral(") or a factor (3x") : QString()));
        return false;
    }
    ms = seconds.value() * 1000;
    factor = 0;
    return true;
}

QJsonObject rulesJson(const AlertRules &r)
{
    return {{QStringLiteral("lateAfterMs"), r.lateAfterMs},
            {QStringLiteral("longerThanMs"), r.longerThanMs},
            {QStringLiteral("longerThanFactor"), r.longerThanFactor},
            {QStringLiteral("shorterThanMs"), r.shorterThanMs},
            {QStringLiteral("shorterThanFactor"), r.shorterThanFactor},
            {QStringLiteral("deadline"), r.deadline},
            {QStringLiteral("deadlineZone"), r.deadlineZone}};
}

// alert show PROJECT/CHAIN: the rules and the alerts of the last week (or --since).
int showAlerts(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption since(
        QStringLiteral("since"), QStringLiteral("Alerts from this time on (default: 7 days ago)."),
        QStringLiteral("ISO8601"));
    parser.addOption(since);
    Store *store = context.prepare(
        parser, args, QStringLiteral("alert show PROJECT/CHAIN [--since ISO8601] [--json]"),
        {QStringLiteral("PROJECT/CHAIN")}, true);
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    qint64 fromMs = nowMs - qint64(7) * 86400000;
    if (parser.isSet(since)) {
        const Result<QDateTime> from = CliContext::timeOption(parser, since);
        if (!from)
            return context.usage(from.error().message);
        fromMs = from->toMSecsSinceEpoch();
    }
    AlertRepository repository(*store);
    const Result<AlertRules> rules = repository.rules(chain->id);
    const Result<QList<Alert>> alerts = repository.list(chain->id, fromMs, nowMs + 86400000);
    if (!rules)
        return context.fail(rules.error());
    if (!alerts)
        return context.fail(alerts.error());
    if (context.json()) {
        QJsonArray raised;
        for (const Alert &a : alerts.value())
            raised << QJsonObject{
                {QStringLiteral("id"), a.id},
                {QStringLiteral("kind"), enumName(a.kind)},
                {QStringLiteral("at"), CliContext::localTimeText(a.atMs)},
                {QStringLiteral("run"), a.runId},
                {QStringLiteral("detail"), a.detail},
                {QStringLiteral("raised"), CliContext::localTimeText(a.raisedAtMs)}};
        context.printJson(QJsonObject{{QStringLiteral("rules"), rulesJson(rules.value())},
                                      {QStringLiteral("alerts"), raised}});
        return ExitOk;
    }
    const AlertRules &r = rules.value();
    QTextStream &out = context.out();
    out << "late after:   " << lengthText(r.lateAfterMs) << '\n'
        << "longer than:  " << limitText(r.longerThanMs, r.longerThanFactor) << '\n'
        << "shorter than: " << limitText(r.shorterThanMs, r.shorterThanFactor) << '\n'
        << "deadline:     "
        << (r.deadline.isEmpty()
                ? QStringLiteral("-")
                : r.deadline
                      + (r.deadlineZone.isEmpty() ? QString()
                                                  : QStringLiteral(" (%1)").arg(r.deadlineZone)))
        << '\n';
    if (alerts->isEmpty()) {
        out << "no alert since " << CliContext::localTimeText(fromMs) << '\n';
        out.flush();
        return ExitOk;
    }
    out.flush();
    QList<QStringList> rows;
    for (const Alert &a : alerts.value())
        rows << QStringList{CliContext::localTimeText(a.atMs), enumName(a.kind),
                            a.runId > 0 ? QString::number(a.runId) : QStringLiteral("-"), a.detail};
    context.printTable({QStringLiteral("AT"), QStringLiteral("ALERT"), QStringLiteral("RUN"),
                        QStringLiteral("DETAIL")},
                       rows);
    return ExitOk;
}

// alert set PROJECT/CHAIN [options]: the options given change, the others stay.
int setAlerts(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption late(
        QStringLiteral("late"),
        QStringLiteral("Alert when a run starts more than this long after "
                       "its fire time (90s, 5 min; off)."),
        QStringLiteral("DURATION"));
    const QCommandLineOption longer(
        QStringLiteral("longer-than"),
        QStringLiteral("Alert when a run takes longer: a length (2h) or "
                       "a factor of the median of the last 20 runs "
                       "(3x); off."),
        QStringLiteral("LIMIT"));
    const QCommandLineOption shorter(QStringLiteral("shorter-than"),
                                     QStringLiteral("Alert when a run succeeds sooner: a length "
                                                    "(5s) or a factor (0.2x); off."),
                                     QStringLiteral("LIMIT"));
    const QCommandLineOption deadline(QStringLiteral("deadline"),
                                      QStringLiteral("Alert when no run succeeded in the 24 hours "
                                                     "before each fire time of this cron "
                                                     "expression ('0 7 * * 1-5': by 07:00 on "
                                                     "weekdays); '' for none."),
                                      QStringLiteral("CRON"));
    const QCommandLineOption zone(QStringLiteral("deadline-zone"),
                                  QStringLiteral("The deadline's time zone (default: the "
                                                 "system's)."),
                                  QStringLiteral("ZONE"));
    parser.addOptions({late, longer, shorter, deadline, zone});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("alert set PROJECT/CHAIN [--late DURATION] [--longer-than LIMIT] "
                       "[--shorter-than LIMIT] [--deadline CRON] [--deadline-zone ZONE]"),
        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    AlertRepository repository(*store);
    const Result<AlertRules> current = repository.rules(chain->id);
    if (!current)
        return context.fail(current.error());
    AlertRules rules = current.value();
    double unused = 0;
    if (!limitOption(context, parser, late, false, rules.lateAfterMs, unused)
        || !limitOption(context, parser, longer, true, rules.longerThanMs, rules.longerThanFactor)
        || !limitOption(context, parser, shorter, true, rules.shorterThanMs,
                        rules.shorterThanFactor))
        return context.exitCode();
    if (parser.isSet(deadline))
        rules.deadline = parser.value(deadline).trimmed();
    if (parser.isSet(zone))
        rules.deadlineZone = parser.value(zone).trimmed();
    if (const Status valid = AlertRulesValidator::validate(rules); !valid)
        return context.usage(QStringLiteral("--%1: %2")
                                 .arg(valid.error().field == QLatin1String("deadlineZone")
                                          ? QStringLiteral("deadline-zone")
                                          : valid.error().field,
                                      valid.error().message));
    if (Status s = repository.setRules(chain->id, rules); !s)
        return context.fail(s.error());
    context.out() << (rules.isSet() ? QStringLiteral("alerts of %1 set\n")
                                    : QStringLiteral("%1 has no alerts\n"))
                         .arg(parser.positionalArguments().at(0));
    context.out().flush();
    return ExitOk;
}

int clearAlerts(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("alert clear PROJECT/CHAIN"),
                                   {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    if (Status s = AlertRepository(*store).setRules(chain->id, AlertRules{}); !s)
        return context.fail(s.error());
    context.out() << QStringLiteral("%1 has no alerts\n").arg(parser.positionalArguments().at(0));
    context.out().flush();
    return ExitOk;
}

} // namespace

int runAlertCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("show"))
        return showAlerts(context, args);
    if (verb == QLatin1String("set"))
        return setAlerts(context, args);
    if (verb == QLatin1String("clear"))
        return clearAlerts(context, args);
    return context.usage(
        QStringLiteral("unknown command 'alert %1'; use show, set or clear").arg(verb));
}

} // namespace hg
