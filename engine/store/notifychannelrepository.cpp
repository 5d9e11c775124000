#include "notifychannelrepository.h"

#include "base/terminaltext.h"
#include "domain/chainpath.h"
#include "domain/mailaddress.h"
#include "store.h"
#include "storequery.h"

#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

namespace hg {
namespace {

const QString selectChannel = QStringLiteral("SELECT id, name, kind, url, settings, secret_key, "
                                             "is_default, created_at FROM notify_channel ");

// The settings column (and an export's channel) into a channel's fields.
void readSettings(const QJsonObject &settings, NotifyChannel &c)
{
    c.security = enumFromString<SmtpSecurity>(settings.value(QLatin1String("security")).toString())
                     .value_or(SmtpSecurity::StartTls);
    c.caFile = settings.value(QLatin1String("ca")).toString();
    c.from = settings.value(QLatin1String("from")).toString();
    for (const QJsonValue to : settings.value(QLatin1String("to")).toArray())
        c.to << to.toString();
    c.format = enumFromString<WebhookFormat>(settings.value(QLatin1String("format")).toString())
                   .value_or(WebhookFormat::Json);
    c.urlIsSecret = settings.value(QLatin1String("urlSecret")).toBool();
    c.floodLimit = settings.value(QLatin1String("floodLimit")).toInt(c.floodLimit);
    c.floodWindowSeconds =
        settings.value(QLatin1String("floodWindowSeconds")).toInt(c.floodWindowSeconds);
    c.dailyCap = settings.value(QLatin1String("dailyCap")).toInt(c.dailyCap);
}

NotifyChannel readChannel(const StoreQuery &q)
{
    NotifyChannel c;
    c.id = q.int64(0);
    c.name = q.text(1);
    c.kind = enumFromString<ChannelKind>(q.text(2)).value_or(ChannelKind::Email);
    c.url = q.text(3);
    readSettings(q.object(4), c);
    c.secretKey = q.text(5);
    c.isDefault = q.boolean(6);
    c.createdAt = q.time(7);
    return c;
}

QJsonObject settingsOf(const NotifyChannel &c)
{
    QJsonObject settings;
    if (c.kind == ChannelKind::Email) {
        settings.insert(QLatin1String("security"), enumName(c.security));
        if (!c.caFile.isEmpty())
            settings.insert(QLatin1String("ca"), c.caFile);
        settings.insert(QLatin1String("from"), c.from);
        settings.insert(QLatin1String("to"), QJsonArray::fromStringList(c.to));
    } else if (c.kind == ChannelKind::Webhook) {
        settings.insert(QLatin1String("format"), enumName(c.format));
        if (c.urlIsSecret)
            settings.insert(QLatin1String("urlSecret"), true);
    }
    settings.insert(QLatin1String("floodLimit"), c.floodLimit);
    settings.insert(QLatin1String("floodWindowSeconds"), c.floodWindowSeconds);
    settings.insert(QLatin1String("dailyCap"), c.dailyCap);
    return settings;
}

bool isLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

Status NotifyChannelRepository::validateWebhookUrl(const QString &text, bool secret)
{
    const QUrl url(text, QUrl::StrictMode);
    // A secret URL is never repeated back (it would land in a terminal's scrollback or a log).
    const QString shown = secret
                              ? tr("the URL read")
                              : QStringLiteral("'%1'").arg(terminaltext::escaped(text.left(300)));
    const QString option = secret ? QStringLiteral("--secret-url-stdin") : QStringLiteral("--url");
    if (text.size() > 8192)
        return Error::invalidField(
            QStringLiteral("url"), 0,
            tr("%1: the URL is %L2 characters long; 8,192 at most").arg(option).arg(text.size()));
    if (!url.isValid() || url.host().isEmpty() || url.port() == 0
        || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return Error::invalidField(
            QStringLiteral("url"), 0,
            tr("%1: %2 is not an http:// or https:// URL").arg(option, shown));
    if (secret)
        return {};
    if (!url.userInfo().isEmpty())
        return Error::invalidField(QStringLiteral("url"), 0,
                                   tr("--url: credentials in the URL would be kept in the store "
                                      "in plain text; give the URL with --secret-url-stdin"));
    // A token in the query is as secret as a password in the user part.
    static const QRegularExpression secretWord(
        QStringLiteral("token|key|secret|sig|password|passwd|auth"),
        QRegularExpression::CaseInsensitiveOption);
    for (const auto &[name, value] : QUrlQuery(url).queryItems())
        if (name.contains(secretWord))
            return Error::invalidField(
                QStringLiteral("url"), 0,
                tr("--url: its '%1' would be kept in the store in plain text; give the URL with "
                   "--secret-url-stdin")
                    .arg(terminaltext::escaped(name)));
    return {};
}

bool NotifyChannelRepository::isMailAddress(const QString &address)
{
    return mailaddress::isValid(address);
}

QStringList NotifyChannelRepository::distinctAddresses(const QStringList &addresses)
{
    QStringList kept;
    QSet<QString> seen;
    for (const QString &address : addresses)
        if (!seen.contains(address.toLower())) {
            seen.insert(address.toLower());
            kept << address;
        }
    return kept;
}

Status NotifyChannelRepository::validate(const NotifyChannel &c)
{
    if (Status name = validateName(QStringLiteral("channel"), c.name); !name)
        return name;
    if (c.floodLimit < 0 || c.floodLimit > 100000)
        return Error::invalidField(QStringLiteral("flood"), 0,
                                   tr("--flood: %1 is not a number of messages from 0 (off) to "
                                      "100000")
                                       .arg(c.floodLimit));
    if (c.floodWindowSeconds < 1 || c.floodWindowSeconds > 86400)
        return Error::invalidField(QStringLiteral("flood-window"), 0,
                                   tr("--flood-window: %1 is not a number of seconds from 1 to "
                                      "86400")
                                       .arg(c.floodWindowSeconds));
    if (c.dailyCap < 0 || c.dailyCap > 1000000)
        return Error::invalidField(QStringLiteral("daily-cap"), 0,
                                   tr("--daily-cap: %1 is not a number of messages from 0 (no "
                                      "cap) to 1000000")
                                       .arg(c.dailyCap));
    if (c.kind == ChannelKind::Desktop) {
        // The host name a desktop channel is shown on, as QSysInfo::machineHostName says it.
        static const QRegularExpression hostName(
            QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$"));
        if (!c.url.isEmpty() && !hostName.match(c.url).hasMatch())
            return Error::invalidField(
                QStringLiteral("host"), 0,
                tr("--host: '%1' is not a host name").arg(terminaltext::escaped(c.url.left(300))));
        if (c.isDefault)
            return Error::invalidField(QStringLiteral("default"), 0,
                                       tr("--default: the default channel is an e-mail one"));
        return {};
    }
    if (c.kind == ChannelKind::Email) {
        const QUrl url(c.url, QUrl::StrictMode);
        if (!url.isValid() || url.scheme() != QLatin1String("smtp") || url.host().isEmpty()
            || !url.path().isEmpty() || url.hasQuery() || url.port() == 0)
            return Error::invalidField(QStringLiteral("url"), 0,
                                       tr("--url: '%1' is not smtp://[USER@]HOST[:PORT]")
                                           .arg(terminaltext::escaped(c.url.left(300))));
        if (!url.password().isEmpty())
            return Error::invalidField(QStringLiteral("url"), 0,
                                       tr("--url: a password in the URL would be kept in the "
                                          "store in plain text; give it with --password-stdin"));
        if (c.security == SmtpSecurity::None && !isLoopback(url.host()))
            return Error::invalidField(
                QStringLiteral("tls"), 0,
                tr("--tls none: '%1' is not this machine, and the messages (and a password) "
                   "would cross the network in clear; use starttls or implicit")
                    .arg(url.host()));
        if (!isMailAddress(c.from))
            return Error::invalidField(QStringLiteral("from"), 0,
                                       tr("--from: '%1' is not an e-mail address")
                                           .arg(terminaltext::escaped(c.from.left(300))));
        if (c.to.isEmpty())
            return Error::invalidField(QStringLiteral("to"), 0,
                                       tr("--to: an e-mail channel needs a recipient"));
        if (c.to.size() > maxRecipients)
            return Error::invalidField(QStringLiteral("to"), 0,
                                       tr("--to: %1 recipients; %2 at most (a list address "
                                          "reaches more)")
                                           .arg(c.to.size())
                                           .arg(maxRecipients));
        for (const QString &to : c.to)
            if (!isMailAddress(to))
                return Error::invalidField(QStringLiteral("to"), 0,
                                           tr("--to: '%1' is not an e-mail address")
                                               .arg(terminaltext::escaped(to.left(300))));
        return {};
    }
    if (c.urlIsSecret)
        return {};
    return validateWebhookUrl(c.url, false);
}

QJsonObject NotifyChannelRepository::toExport(const NotifyChannel &channel)
{
    QJsonObject object = settingsOf(channel);
    object.insert(QLatin1String("name"), channel.name);
    object.insert(QLatin1String("kind"), enumName(channel.kind));
    if (!channel.url.isEmpty())
        object.insert(QLatin1String("url"), channel.url); // a secret URL is with the secrets
    if (channel.isDefault)
        object.insert(QLatin1String("default"), true);
    if (!channel.secretKey.isEmpty())
        object.insert(QLatin1String("secretsLeftBehind"), true);
    return object;
}

Result<NotifyChannel> NotifyChannelRepository::fromExport(const QJsonObject &object)
{
    NotifyChannel channel;
    channel.name = object.value(QLatin1String("name")).toString();
    // Checked as `channel add` checks them: an unknown word is an error, never a default.
    const auto word = [&object](const char *key) {
        return object.value(QLatin1String(key)).toString();
    };
    const std::optional<ChannelKind> kind = enumFromString<ChannelKind>(word("kind"));
    if (!kind)
        return Error::invalidField(
            QStringLiteral("kind"), 0,
            tr("'%1' is not a kind of channel (%2)")
                .arg(terminaltext::escaped(word("kind").left(100)), enumChoices<ChannelKind>()));
    channel.kind = *kind;
    if (object.contains(QLatin1String("security"))
        && !enumFromString<SmtpSecurity>(word("security")))
        return Error::invalidField(QStringLiteral("security"), 0,
                                   tr("'%1' is not an encryption (%2)")
                                       .arg(terminaltext::escaped(word("security").left(100)),
                                            enumChoices<SmtpSecurity>()));
    if (object.contains(QLatin1String("format")) && !enumFromString<WebhookFormat>(word("format")))
        return Error::invalidField(QStringLiteral("format"), 0,
                                   tr("'%1' is not a webhook body (%2)")
                                       .arg(terminaltext::escaped(word("format").left(100)),
                                            enumChoices<WebhookFormat>()));
    channel.url = word("url");
    readSettings(object, channel);
    channel.isDefault = object.value(QLatin1String("default")).toBool();
    if (Status valid = validate(channel); !valid)
        return valid.error();
    if (!channel.caFile.isEmpty())
        if (Status ca = validateCaFile(channel.caFile); !ca)
            return ca.error();
    return channel;
}

Status NotifyChannelRepository::validateCaFile(const QString &path)
{
    // A regular file only: a FIFO would be opened and waited on for good.
    QFile pem(path);
    if (!QFileInfo(path).isAbsolute() || !QFileInfo(path).isFile() || !pem.open(QIODevice::ReadOnly)
        || !pem.read(qint64(64) * 1024).contains("-----BEGIN CERTIFICATE-----"))
        return Error::invalidField(QStringLiteral("ca"), 0,
                                   tr("--ca: '%1' is not a readable PEM file of certificates")
                                       .arg(terminaltext::escaped(path.left(300))));
    return {};
}

Status NotifyChannelRepository::setSecretKey(qint64 channelId, const QString &key)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE notify_channel SET secret_key = ? WHERE id = ?"));
    q.bind(key).bind(channelId);
    return q.exec(tr("keep the secrets of channel %1").arg(channelId));
}

Result<NotifyChannel> NotifyChannelRepository::add(const NotifyChannel &channel)
{
    if (Status valid = validate(channel); !valid)
        return valid.error();
    // Slack's, Discord's and Teams' incoming-webhook URLs carry their token in the path: a
    // new channel keeps one only as a secret, never in the store or an export (helper-8). (A
    // channel stored before this rule can still have its settings changed.)
    if (channel.kind == ChannelKind::Webhook && !channel.urlIsSecret
        && (channel.format == WebhookFormat::Slack || channel.format == WebhookFormat::Discord
            || channel.format == WebhookFormat::Teams))
        return Error::invalidField(QStringLiteral("url"), 0,
                                   tr("--url: a %1 webhook's URL is itself a secret (its token "
                                      "is in the path); give it with --secret-url-stdin")
                                       .arg(enumName(channel.format)));
    NotifyChannel stored = channel;
    stored.createdAt = QDateTime::currentDateTimeUtc();
    const Status written = m_store.transaction([&]() -> Status {
        if (stored.isDefault) {
            StoreQuery clear(m_store, QStringLiteral("UPDATE notify_channel SET is_default = ? "
                                                     "WHERE kind = ?"));
            clear.bind(false).bind(enumName(stored.kind));
            if (Status s = clear.exec(tr("add channel '%1'").arg(stored.name)); !s)
                return s;
        }
        StoreQuery q(m_store, QStringLiteral("INSERT INTO notify_channel (name, kind, url, "
                                             "settings, secret_key, is_default, created_at) "
                                             "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"));
        q.bind(stored.name)
            .bind(enumName(stored.kind))
            .bind(stored.url)
            .bind(StoreQuery::fromJson(settingsOf(stored)))
            .bind(stored.secretKey)
            .bind(stored.isDefault)
            .bind(StoreQuery::fromTime(stored.createdAt));
        if (Status s = q.execSingle(tr("add channel '%1'").arg(stored.name), {}); !s) {
            if (s.error().kind == ErrorKind::AlreadyExists)
                return Error::exists(tr("channel '%1' already exists").arg(stored.name));
            return s;
        }
        stored.id = q.int64(0);
        return {};
    });
    if (!written)
        return written.error();
    return stored;
}

Result<NotifyChannel> NotifyChannelRepository::fetchOne(const QString &where, const QVariant &key,
                                                        const QString &notFound) const
{
    StoreQuery q(m_store, selectChannel + where);
    q.bind(key);
    if (Status s = q.execSingle(tr("read channel"), notFound); !s)
        return s.error();
    return readChannel(q);
}

Result<NotifyChannel> NotifyChannelRepository::byName(const QString &name) const
{
    return fetchOne(QStringLiteral("WHERE name = ?"), name,
                    tr("unknown channel '%1' (see `hourglass channel list`)").arg(name));
}

Result<NotifyChannel> NotifyChannelRepository::byId(qint64 id) const
{
    return fetchOne(QStringLiteral("WHERE id = ?"), id, tr("unknown channel id %1").arg(id));
}

Result<QList<NotifyChannel>> NotifyChannelRepository::list() const
{
    StoreQuery q(m_store, selectChannel + QStringLiteral("ORDER BY name"));
    if (Status s = q.exec(tr("list channels")); !s)
        return s.error();
    QList<NotifyChannel> channels;
    while (q.next())
        channels << readChannel(q);
    return channels;
}

Status NotifyChannelRepository::updateSettings(const NotifyChannel &channel)
{
    if (Status valid = validate(channel); !valid)
        return valid;
    StoreQuery q(m_store, QStringLiteral("UPDATE notify_channel SET settings = ? WHERE id = ?"));
    q.bind(StoreQuery::fromJson(settingsOf(channel))).bind(channel.id);
    if (Status s = q.exec(tr("change channel '%1'").arg(channel.name)); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown channel '%1'").arg(channel.name));
    return {};
}

Status NotifyChannelRepository::remove(const QString &name)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM notify_channel WHERE name = ?"));
    q.bind(name);
    if (Status s = q.exec(tr("remove channel '%1'").arg(name)); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown channel '%1'").arg(name));
    return {};
}

} // namespace hg
