#include "clicontext.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runretention.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

QString limitText(int value, const QString &unit)
{
    return value > 0 ? QStringLiteral("%1 %2").arg(value).arg(unit) : QStringLiteral("-");
}

// The chain named by the optional PROJECT/CHAIN argument, or nullopt for every chain.
bool chainFilter(CliContext &context, Store &store, const QCommandLineParser &parser,
                 std::optional<qint64> &chainId)
{
    if (parser.positionalArguments().isEmpty())
        return true;
    const Result<Chain> chain = ChainRepository(store).byPath(parser.positionalArguments().at(0));
    if (!chain) {
        context.fail(chain.error());
        return false;
    }
    chainId = chain->id;
    return true;
}

// Every chain with its limits and how many of its runs would go now.
int showRetention(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("retention show [PROJECT/CHAIN] [--json]"),
                        {QStringLiteral("PROJECT/CHAIN")}, true, 1);
    std::optional<qint64> only;
    if (!store || !chainFilter(context, *store, parser, only))
        return context.exitCode();
    const Result<QList<RunRetention::Expired>> due =
        RunRetention(*store).due(QDateTime::currentMSecsSinceEpoch(), only, 1000000);
    if (!due)
        return context.fail(due.error());
    QHash<qint64, int> dueByChain;
    for (const RunRetention::Expired &run : due.value())
        ++dueByChain[run.chainId];
    const Result<QList<Project>> projects = ProjectRepository(*store).list();
    if (!projects)
        return context.fail(projects.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Project &project : projects.value()) {
        const Result<QList<Chain>> chains = ChainRepository(*store).list(project.id);
        if (!chains)
            return context.fail(chains.error());
        for (const Chain &chain : chains.value()) {
            if (only && chain.id != *only)
                continue;
            const Retention &r = chain.retention;
            const QString path = project.name + QLatin1Char('/') + chain.name;
            array << QJsonObject{{QStringLiteral("chain"), path},
                                 {QStringLiteral("keepRuns"), r.keepRuns},
                                 {QStringLiteral("keepDays"), r.keepDays},
                                 {QStringLiteral("keepFailedRuns"), r.keepFailedRuns},
                                 {QStringLiteral("keepFailedDays"), r.keepFailedDays},
                                 {QStringLiteral("due"), dueByChain.value(chain.id)}};
            rows << QStringList{path,
                                limitText(r.keepRuns, QStringLiteral("runs")),
                                limitText(r.keepDays, QStringLiteral("days")),
                                limitText(r.keepFailedRuns, QStringLiteral("runs")),
                                limitText(r.keepFailedDays, QStringLiteral("days")),
                                QString::number(dueByChain.value(chain.id))};
        }
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("CHAIN"), QStringLiteral("KEEP"), QStringLiteral("FOR"),
                            QStringLiteral("KEEP FAILED"), QStringLiteral("FAILED FOR"),
                            QStringLiteral("DUE NOW")},
                           rows);
    return ExitOk;
}

int applyRetention(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("List what would go; remove nothing."));
    parser.addOption(dryRun);
    Store *store = context.prepare(
        parser, args, QStringLiteral("retention apply [PROJECT/CHAIN] [--dry-run] [--json]"),
        {QStringLiteral("PROJECT/CHAIN")}, true, 1);
    std::optional<qint64> only;
    if (!store || !chainFilter(context, *store, parser, only))
        return context.exitCode();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    RunRetention retention(*store);
    if (parser.isSet(dryRun)) {
        const Result<QList<RunRetention::Expired>> due = retention.due(now, only, 1000000);
        if (!due)
            return context.fail(due.error());
        QJsonArray array;
        QList<QStringList> rows;
        for (const RunRetention::Expired &run : due.value()) {
            array << QJsonObject{
                {QStringLiteral("run"), run.runId},
                {QStringLiteral("state"), enumName(run.state)},
                {QStringLiteral("finishedAt"), run.finishedAt.toString(Qt::ISODate)}};
            rows << QStringList{QString::number(run.runId), enumName(run.state),
                                run.finishedAt.toLocalTime().toString(Qt::ISODate)};
        }
        if (context.json())
            context.printJson(array);
        else
            context.printTable(
                {QStringLiteral("RUN"), QStringLiteral("STATE"), QStringLiteral("FINISHED")}, rows);
        return ExitOk;
    }
    // Batches, each its own transaction: engines go on claiming in between.
    constexpr int batch = 500;
    qint64 removed = 0;
    for (;;) {
        const Result<int> done = retention.applyBatch(now, only, batch);
        if (!done)
            return context.fail(done.error());
        removed += done.value();
        if (done.value() < batch)
            break;
    }
    if (context.json())
        context.printJson(QJsonObject{{QStringLiteral("removed"), removed}});
    else
        context.out() << removed << " run(s) removed\n";
    return ExitOk;
}

int setRetention(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption keepRuns(QStringLiteral("keep-runs"),
                                      QStringLiteral("Keep the newest N finished runs (0: all)."),
                                      QStringLiteral("N"));
    const QCommandLineOption keepDays(QStringLiteral("keep-days"),
                                      QStringLiteral("Keep runs that ended in the last N days "
                                                     "(0: all)."),
                                      QStringLiteral("N"));
    const QCommandLineOption keepFailedRuns(
        QStringLiteral("keep-failed-runs"),
        QStringLiteral("For failed runs: keep the newest N (0: as other runs)."),
        QStringLiteral("N"));
    const QCommandLineOption keepFailedDays(
        QStringLiteral("keep-failed-days"),
        QStringLiteral("For failed runs: keep those of the last N days (0: as other runs)."),
        QStringLiteral("N"));
    parser.addOptions({keepRuns, keepDays, keepFailedRuns, keepFailedDays});
    Store *store =
        context.prepare(parser, args,
                        QStringLiteral("retention set PROJECT/CHAIN [--keep-runs N] [--keep-days "
                                       "N] [--keep-failed-runs N] [--keep-failed-days N]"),
                        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    ChainRepository chains(*store);
    Result<Chain> chain = chains.byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    Retention &r = chain->retention;
    if (!context.intOption(parser, keepRuns, r.keepRuns)
        || !context.intOption(parser, keepDays, r.keepDays)
        || !context.intOption(parser, keepFailedRuns, r.keepFailedRuns)
        || !context.intOption(parser, keepFailedDays, r.keepFailedDays))
        return context.exitCode();
    const Status updated = chains.update(chain.value());
    return updated ? ExitOk : context.fail(updated.error());
}

} // namespace

int runRetentionCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("show"))
        return showRetention(context, args);
    if (verb == QLatin1String("apply"))
        return applyRetention(context, args);
    if (verb == QLatin1String("set"))
        return setRetention(context, args);
    return context.usage(
        QStringLiteral("unknown command 'retention %1'; use show, apply or set").arg(verb));
}

} // namespace hg
