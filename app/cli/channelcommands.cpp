// channel add|list|set|test|rm: where notifications go.
#include "base/terminaltext.h"
#include "clicontext.h"
#include "notify/channelsecrets.h"
#include "notify/notificationmessage.h"
#include "notify/smtpsender.h"
#include "notify/webhooksender.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSysInfo>
#include <QThread>
#include <QUrl>
#include <QUuid>

namespace hg {
namespace {

// Flood control's options, alike for add and set.
struct FloodOptions
{
    QCommandLineOption limit{QStringLiteral("flood"),
                             QStringLiteral("At most N messages a window; past it one digest "
                                            "(default 10; 0: no limit)."),
                             QStringLiteral("N")};
    QCommandLineOption window{QStringLiteral("flood-window"),
                              QStringLiteral("The window, in seconds (default 600)."),
                              QStringLiteral("SECONDS")};
    QCommandLineOption cap{QStringLiteral("daily-cap"),
                           QStringLiteral("At most N messages a day; past it one message says "
                                          "so, and a digest at midnight (default 200; 0: no "
                                          "cap)."),
                           QStringLiteral("N")};

    QList<QCommandLineOption> all() const { return {limit, window, cap}; }
    bool isSet(const QCommandLineParser &parser) const
    {
        return parser.isSet(limit) || parser.isSet(window) || parser.isSet(cap);
    }
    bool read(CliContext &context, const QCommandLineParser &parser, NotifyChannel &channel) const
    {
        return context.intOption(parser, limit, channel.floodLimit, 0, 100000)
               && context.intOption(parser, window, channel.floodWindowSeconds, 1, 86400)
               && context.intOption(parser, cap, channel.dailyCap, 0, 1000000);
    }
};

// How a channel's secrets are read (stdin only: never argv, which `ps` shows).
struct SecretOptions
{
    QCommandLineOption password{QStringLiteral("password-stdin"),
                                QStringLiteral("Read the SMTP password from stdin.")};
    QCommandLineOption secret{QStringLiteral("secret-stdin"),
                              QStringLiteral("Read the webhook's signing secret from stdin.")};
    QCommandLineOption url{QStringLiteral("secret-url-stdin"),
                           QStringLiteral("Read the webhook's URL from stdin and keep it as a "
                                          "secret (Slack's and Teams' carry a token).")};
};

int addChannel(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption kind(QStringLiteral("kind"),
                                  QStringLiteral("email, webhook or desktop (the tray of "
                                                 "Hourglass's window)."),
                                  QStringLiteral("KIND"));
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("A desktop channel: shown on this machine's "
                                                 "desktop only (default: any desktop of the "
                                                 "store)."),
                                  QStringLiteral("HOST"));
    const QCommandLineOption url(QStringLiteral("url"),
                                 QStringLiteral("smtp://[USER@]HOST[:PORT], or the webhook's URL."),
                                 QStringLiteral("URL"));
    const QCommandLineOption tls(QStringLiteral("tls"),
                                 QStringLiteral("starttls (default), implicit or none (loopback "
                                                "only)."),
                                 QStringLiteral("MODE"));
    const QCommandLineOption ca(QStringLiteral("ca"),
                                QStringLiteral("PEM file the server's certificate is checked "
                                               "against (default: the system's)."),
                                QStringLiteral("FILE"));
    const QCommandLineOption from(QStringLiteral("from"), QStringLiteral("Sender address."),
                                  QStringLiteral("ADDR"));
    const QCommandLineOption to(QStringLiteral("to"),
                                QStringLiteral("Recipients, comma-separated."),
                                QStringLiteral("ADDR[,ADDR…]"));
    const QCommandLineOption format(
        QStringLiteral("format"), QStringLiteral("json (default), slack, discord, teams or ntfy."),
        QStringLiteral("FORMAT"));
    const SecretOptions stdinOptions;
    const QCommandLineOption &passwordStdin = stdinOptions.password;
    const QCommandLineOption &secretStdin = stdinOptions.secret;
    const QCommandLineOption &secretUrlStdin = stdinOptions.url;
    const QCommandLineOption isDefault(QStringLiteral("default"),
                                       QStringLiteral("The default e-mail channel (crontab "
                                                      "MAILTO routes go to it)."));
    const FloodOptions flood;
    parser.addOptions({kind, url, host, tls, ca, from, to, format, passwordStdin, secretStdin,
                       secretUrlStdin, isDefault});
    parser.addOptions(flood.all());
    Store *store = context.prepare(
        parser, args,
        QStringLiteral(
            "channel add NAME --kind email|webhook|desktop [--url URL] [--host HOST] "
            "[--tls starttls|implicit|none] [--ca FILE] [--from ADDR] [--to ADDR,…] [--format "
            "FORMAT] "
            "[--password-stdin|--secret-stdin|--secret-url-stdin] [--default] [--flood N] "
            "[--flood-window SECONDS] [--daily-cap N]"),
        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    NotifyChannel channel;
    channel.name = parser.positionalArguments().at(0);
    if (!parser.isSet(kind))
        return context.usage(QStringLiteral("missing --kind (email, webhook or desktop)"));
    if (!context.enumOption(parser, kind, channel.kind)
        || !context.enumOption(parser, tls, channel.security)
        || !context.enumOption(parser, format, channel.format)
        || !flood.read(context, parser, channel))
        return context.exitCode();
    if (channel.kind == ChannelKind::Desktop) {
        if (parser.isSet(url) || parser.isSet(tls) || parser.isSet(ca) || parser.isSet(from)
            || parser.isSet(to) || parser.isSet(format) || parser.isSet(passwordStdin)
            || parser.isSet(secretStdin) || parser.isSet(secretUrlStdin))
            return context.usage(QStringLiteral("--kind desktop: a desktop channel takes --host "
                                                "only (the tray needs no server nor secret)"));
        channel.url = parser.value(host);
    } else if (parser.isSet(host)) {
        return context.usage(QStringLiteral("--host is for desktop channels"));
    }
    if (parser.isSet(isDefault) && channel.kind != ChannelKind::Email)
        return context.usage(QStringLiteral("--default: the default channel is an e-mail one "
                                            "(crontab MAILTO routes go to it)"));
    if (channel.kind != ChannelKind::Desktop)
        channel.url = parser.value(url);
    channel.caFile = parser.value(ca);
    channel.from = parser.value(from);
    channel.to = parser.value(to).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &address : channel.to)
        address = address.trimmed();
    channel.to = NotifyChannelRepository::distinctAddresses(channel.to);
    channel.isDefault = parser.isSet(isDefault);
    if (channel.kind == ChannelKind::Webhook) {
        // Options of e-mail channels, refused rather than dropped in silence (helper-8).
        for (const QCommandLineOption *mailOnly : {&tls, &ca, &from, &to})
            if (parser.isSet(*mailOnly))
                return context.usage(QStringLiteral("--%1 is for e-mail channels")
                                         .arg(mailOnly->names().constFirst()));
    } else if (parser.isSet(format)) {
        return context.usage(QStringLiteral("--format is for webhook channels"));
    }
    if (!channel.caFile.isEmpty()) {
        channel.caFile = QFileInfo(channel.caFile).absoluteFilePath(); // serve runs elsewhere
        if (Status pem = NotifyChannelRepository::validateCaFile(channel.caFile); !pem)
            return context.fail(pem.error());
    }
    QJsonObject secrets;
    const bool email = channel.kind == ChannelKind::Email;
    if (parser.isSet(passwordStdin)) {
        if (!email)
            return context.usage(QStringLiteral("--password-stdin is for e-mail channels"));
        if (QUrl(channel.url).userName().isEmpty())
            return context.usage(QStringLiteral("--password-stdin: the URL names no user to log "
                                                "in as (smtp://USER@HOST)"));
        const Result<QString> password = CliContext::secretFromStdin(
            QStringLiteral("--password-stdin"), QStringLiteral("password"));
        if (!password)
            return context.fail(password.error());
        secrets.insert(QStringLiteral("password"), password.value());
    }
    if (parser.isSet(secretStdin) || parser.isSet(secretUrlStdin)) {
        if (email)
            return context.usage(QStringLiteral("--secret-stdin and --secret-url-stdin are for "
                                                "webhook channels"));
        if (parser.isSet(secretStdin) && parser.isSet(secretUrlStdin))
            return context.usage(QStringLiteral("--secret-stdin and --secret-url-stdin read the "
                                                "same stdin: give one"));
        const QString option = parser.isSet(secretStdin) ? QStringLiteral("--secret-stdin")
                                                         : QStringLiteral("--secret-url-stdin");
        const Result<QString> secret = CliContext::secretFromStdin(
            option, parser.isSet(secretStdin) ? QStringLiteral("secret") : QStringLiteral("URL"));
        if (!secret)
            return context.fail(secret.error());
        if (parser.isSet(secretStdin)) {
            secrets.insert(QStringLiteral("secret"), secret.value());
        } else {
            if (Status valid = NotifyChannelRepository::validateWebhookUrl(secret.value(), true);
                !valid)
                return context.fail(valid.error());
            if (!channel.url.isEmpty())
                return context.usage(QStringLiteral("--secret-url-stdin reads the URL: leave "
                                                    "--url out"));
            channel.urlIsSecret = true;
            secrets.insert(QStringLiteral("url"), secret.value());
        }
    }
    if (Status valid = NotifyChannelRepository::validate(channel); !valid)
        return context.fail(valid.error());
    QString previousDefault;
    if (channel.isDefault)
        if (const Result<QList<NotifyChannel>> all = NotifyChannelRepository(*store).list())
            for (const NotifyChannel &other : all.value())
                if (other.isDefault && other.kind == channel.kind)
                    previousDefault = other.name;
    ChannelSecrets keeper;
    QString keptIn;
    if (!secrets.isEmpty()) {
        channel.secretKey = ChannelSecrets::newKey(channel.name);
        const Result<QString> kept = keeper.store(channel.secretKey, secrets);
        if (!kept)
            return context.fail(kept.error());
        keptIn = kept.value();
    }
    const Result<NotifyChannel> added = NotifyChannelRepository(*store).add(channel);
    if (!added) {
        (void)keeper.forget(channel.secretKey);
        return context.fail(added.error());
    }
    if (!keptIn.isEmpty())
        context.err() << "hourglass: the channel's secrets are kept in " << keptIn << '\n';
    if (!previousDefault.isEmpty())
        context.err() << "hourglass: '" << terminaltext::escaped(channel.name)
                      << "' is the default e-mail channel now, instead of '"
                      << terminaltext::escaped(previousDefault) << "'\n";
    return ExitOk;
}

QJsonObject channelJson(const NotifyChannel &c)
{
    QJsonObject object{
        {QStringLiteral("name"), c.name},
        {QStringLiteral("kind"), enumName(c.kind)},
        {QStringLiteral("url"), c.urlIsSecret ? QStringLiteral("(kept as a secret)") : c.url},
        {QStringLiteral("default"), c.isDefault},
        {QStringLiteral("hasSecrets"), !c.secretKey.isEmpty()},
        {QStringLiteral("flood"), c.floodLimit},
        {QStringLiteral("floodWindowSeconds"), c.floodWindowSeconds},
        {QStringLiteral("dailyCap"), c.dailyCap}};
    if (c.kind == ChannelKind::Email) {
        object.insert(QStringLiteral("tls"), enumName(c.security));
        object.insert(QStringLiteral("from"), c.from);
        object.insert(QStringLiteral("to"), QJsonArray::fromStringList(c.to));
        if (!c.caFile.isEmpty())
            object.insert(QStringLiteral("ca"), c.caFile);
    } else if (c.kind == ChannelKind::Webhook) {
        object.insert(QStringLiteral("format"), enumName(c.format));
    } else {
        object.remove(QStringLiteral("url"));
        object.insert(QStringLiteral("host"), c.url);
    }
    return object;
}

int listChannels(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("channel list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<NotifyChannel>> channels = NotifyChannelRepository(*store).list();
    if (!channels)
        return context.fail(channels.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const NotifyChannel &c : channels.value()) {
        array << channelJson(c);
        QString where = c.url;
        QString mode = enumName(c.format);
        if (c.kind == ChannelKind::Email) {
            where = QStringLiteral("%1 → %2").arg(c.url, c.to.join(QLatin1Char(',')));
            mode = enumName(c.security);
        } else if (c.kind == ChannelKind::Desktop) {
            where = c.url.isEmpty() ? QStringLiteral("any desktop of this store")
                                    : QStringLiteral("the desktop of %1").arg(c.url);
            mode = QStringLiteral("tray");
        } else if (c.urlIsSecret) {
            where = QStringLiteral("(URL kept as a secret)");
        }
        rows << QStringList{
            terminaltext::escaped(c.name),
            enumName(c.kind),
            mode,
            terminaltext::escaped(where),
            (c.floodLimit > 0 ? QStringLiteral("%1/%2s").arg(c.floodLimit).arg(c.floodWindowSeconds)
                              : QStringLiteral("-"))
                + QLatin1Char(' ')
                + (c.dailyCap > 0 ? QStringLiteral("%1/day").arg(c.dailyCap) : QStringLiteral("-")),
            c.isDefault ? QStringLiteral("default") : QString()};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("NAME"), QStringLiteral("KIND"), QStringLiteral("MODE"),
                            QStringLiteral("WHERE"), QStringLiteral("AT MOST"), QString()},
                           rows);
    return ExitOk;
}

int setChannel(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const FloodOptions flood;
    parser.addOptions(flood.all());
    // An imported channel comes without its secrets: they are given here.
    const SecretOptions stdinOptions;
    const QCommandLineOption &passwordStdin = stdinOptions.password;
    const QCommandLineOption &secretStdin = stdinOptions.secret;
    const QCommandLineOption &secretUrlStdin = stdinOptions.url;
    parser.addOptions({passwordStdin, secretStdin, secretUrlStdin});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("channel set NAME [--flood N] [--flood-window SECONDS] [--daily-cap N] "
                       "[--password-stdin|--secret-stdin|--secret-url-stdin]"),
        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    Result<NotifyChannel> channel =
        NotifyChannelRepository(*store).byName(parser.positionalArguments().at(0));
    if (!channel)
        return context.fail(channel.error());
    const int secretOptions = int(parser.isSet(passwordStdin)) + int(parser.isSet(secretStdin))
                              + int(parser.isSet(secretUrlStdin));
    if (!flood.isSet(parser) && secretOptions == 0)
        return context.usage(QStringLiteral("nothing to change: give --flood, --flood-window, "
                                            "--daily-cap or a secret"));
    if (secretOptions > 1)
        return context.usage(QStringLiteral("the secret options read the same stdin: give one"));
    if (flood.isSet(parser)) {
        if (!flood.read(context, parser, channel.value()))
            return context.exitCode();
        if (Status written = NotifyChannelRepository(*store).updateSettings(channel.value());
            !written)
            return context.fail(written.error());
    }
    if (secretOptions == 0)
        return ExitOk;
    const bool email = channel->kind == ChannelKind::Email;
    QString field = QStringLiteral("password");
    QString option = QStringLiteral("--password-stdin");
    if (parser.isSet(passwordStdin) && (!email || QUrl(channel->url).userName().isEmpty()))
        return context.usage(QStringLiteral("--password-stdin is for an e-mail channel whose URL "
                                            "names a user (smtp://USER@HOST)"));
    if (parser.isSet(secretStdin)) {
        field = QStringLiteral("secret");
        option = QStringLiteral("--secret-stdin");
    } else if (parser.isSet(secretUrlStdin)) {
        field = QStringLiteral("url");
        option = QStringLiteral("--secret-url-stdin");
        if (!channel->urlIsSecret)
            return context.usage(QStringLiteral("--secret-url-stdin: this channel's URL is not "
                                                "kept as a secret; remove it and add it again "
                                                "with --secret-url-stdin"));
    }
    if (!parser.isSet(passwordStdin) && email)
        return context.usage(QStringLiteral("%1 is for webhook channels").arg(option));
    const Result<QString> secret = CliContext::secretFromStdin(option, field);
    if (!secret)
        return context.fail(secret.error());
    if (field == QLatin1String("url"))
        if (Status valid = NotifyChannelRepository::validateWebhookUrl(secret.value(), true);
            !valid)
            return context.fail(valid.error());
    const ChannelSecrets keeper;
    const Result<QJsonObject> kept = keeper.lookup(channel->secretKey);
    QJsonObject secrets = kept ? kept.value() : QJsonObject();
    secrets.insert(field, secret.value());
    const bool newKey = channel->secretKey.isEmpty();
    const QString key = newKey ? ChannelSecrets::newKey(channel->name) : channel->secretKey;
    const Result<QString> where = keeper.store(key, secrets);
    if (!where)
        return context.fail(where.error());
    if (newKey) {
        if (Status written = NotifyChannelRepository(*store).setSecretKey(channel->id, key);
            !written) {
            (void)keeper.forget(key);
            return context.fail(written.error());
        }
    }
    context.err() << "hourglass: the channel's secrets are kept in " << where.value() << '\n';
    return ExitOk;
}

int removeChannel(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption force(QStringLiteral("force"),
                                   QStringLiteral("Remove it with its routes and the messages "
                                                  "still waiting for it."));
    parser.addOption(force);
    Store *store = context.prepare(parser, args, QStringLiteral("channel rm NAME [--force]"),
                                   {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    const QString name = parser.positionalArguments().at(0);
    const Result<NotifyChannel> channel = NotifyChannelRepository(*store).byName(name);
    if (!channel)
        return context.fail(channel.error());
    // Messages not yet sent go with it: never in silence.
    const Result<int> waiting = OutboxRepository(*store).waiting(channel->id);
    if (!waiting)
        return context.fail(waiting.error());
    if (waiting.value() > 0 && !parser.isSet(force))
        return context.fail(Error::invalid(
            QStringLiteral("channel '%1' has %2 message(s) not yet sent (`hourglass deliveries "
                           "--state queued`); they would go with it: --force removes it all the "
                           "same")
                .arg(terminaltext::escaped(name))
                .arg(waiting.value())));
    // Its routes go with it (the chains they served fall back to their project's or the
    // global routes): said, never in silence (helper-8).
    QStringList routed;
    if (const Result<QList<NotifyRoute>> routes = NotifyRouteRepository(*store).list())
        for (const NotifyRoute &route : routes.value())
            if (route.channelId == channel->id)
                routed << (route.scope.isEmpty() ? QStringLiteral("the global routes")
                                                 : terminaltext::escaped(route.scope));
    if (Status removed = NotifyChannelRepository(*store).remove(name); !removed)
        return context.fail(removed.error());
    if (!routed.isEmpty())
        context.err() << "hourglass: removed with its " << routed.size() << " route(s), of "
                      << routed.join(QStringLiteral(", "))
                      << "; those chains now follow their project's or the global routes\n";
    if (Status forgotten = ChannelSecrets().forget(channel->secretKey); !forgotten)
        context.err() << "hourglass: the channel is removed, but its secrets could not be: "
                      << forgotten.error().message << '\n';
    return ExitOk;
}

// Only the window's engine can show a message in its tray: the test is queued in the outbox
// for it, and the answer is what it said (or that none took it in time).
SendOutcome testOnDesktop(Store &store, const NotifyChannel &channel,
                          const NotificationMessage &message, int timeoutMs, QString &deliveryId)
{
    OutboxRepository outbox(store);
    const qint64 queuedAt = QDateTime::currentMSecsSinceEpoch();
    const Result<qint64> id =
        outbox.addTest(channel.id, message.subject, message.bodyForStore(), queuedAt);
    if (!id)
        return SendOutcome{false, false, false, id.error().message};
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < timeoutMs) {
        const Result<Delivery> row = outbox.byId(id.value());
        if (!row)
            return SendOutcome{false, false, false, row.error().message};
        deliveryId = row->deliveryId;
        if (row->state != DeliveryState::Queued)
            return SendOutcome{row->state == DeliveryState::Sent, false, false, row->lastAnswer};
        QThread::msleep(100); // another process answers: nothing here to wait on but the row
    }
    // Taken back, so that no window shows a stale test hours later (helper-8); one that an
    // engine took meanwhile is waited for a moment more.
    for (int look = 0; look < 50; ++look) {
        const Result<bool> withdrawn =
            outbox.withdraw(id.value(), QDateTime::currentMSecsSinceEpoch());
        if (!withdrawn || withdrawn.value())
            break;
        const Result<Delivery> row = outbox.byId(id.value());
        if (row && row->state != DeliveryState::Queued)
            return SendOutcome{row->state == DeliveryState::Sent, false, false, row->lastAnswer};
        QThread::msleep(100);
    }
    return SendOutcome{false, false, false,
                       QStringLiteral("no desktop took it in %1 s: is Hourglass's window running "
                                      "%2? (the test is taken back)")
                           .arg(timeoutMs / 1000)
                           .arg(channel.url.isEmpty() ? QStringLiteral("on this store")
                                                      : QStringLiteral("on %1").arg(channel.url))};
}

int testChannel(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("channel test NAME [--json]"),
                                   {QStringLiteral("NAME")}, true);
    if (!store)
        return context.exitCode();
    const Result<NotifyChannel> channel =
        NotifyChannelRepository(*store).byName(parser.positionalArguments().at(0));
    if (!channel)
        return context.fail(channel.error());
    const Result<QJsonObject> secrets = ChannelSecrets().lookup(channel->secretKey);
    if (!secrets) { // not sent: a failure of the channel, not of the command's words
        context.fail(secrets.error());
        return ExitFailure;
    }
    const NotificationMessage message =
        NotificationMessage::test(channel.value(), QSysInfo::machineHostName());
    QString deliveryId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    constexpr int timeoutMs = 30000;
    const SendOutcome outcome =
        channel->kind == ChannelKind::Desktop
            ? testOnDesktop(*store, channel.value(), message, timeoutMs, deliveryId)
        : channel->kind == ChannelKind::Email
            ? SmtpSender::send(channel.value(), secrets.value(), message, deliveryId, {}, timeoutMs)
            : WebhookSender::send(channel.value(), secrets.value(), message, deliveryId, timeoutMs);
    if (context.json()) {
        context.printJson(QJsonObject{{QStringLiteral("delivered"), outcome.delivered},
                                      {QStringLiteral("answer"), outcome.answer},
                                      {QStringLiteral("delivery"), deliveryId}});
    } else {
        context.out() << (outcome.delivered ? "sent: " : "not sent: ")
                      << terminaltext::escaped(outcome.answer) << '\n';
        context.out().flush();
    }
    return outcome.delivered ? ExitOk : ExitFailure;
}

} // namespace

int runChannelCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addChannel(context, args);
    if (verb == QLatin1String("list"))
        return listChannels(context, args);
    if (verb == QLatin1String("test"))
        return testChannel(context, args);
    if (verb == QLatin1String("set"))
        return setChannel(context, args);
    if (verb == QLatin1String("rm"))
        return removeChannel(context, args);
    return context.usage(
        QStringLiteral("unknown command 'channel %1'; use add, list, set, test or rm").arg(verb));
}

} // namespace hg
