#pragma once

#include "base/result.h"
#include "domain/notification.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>

namespace hg {

class Store;

// The channels notifications go to. Never a secret here: a channel names where its secrets
// are kept (NotifyChannel::secretKey, ChannelSecrets).
class NotifyChannelRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::NotifyChannelRepository)

public:
    explicit NotifyChannelRepository(Store &store)
        : m_store(store)
    {}

    // What is wrong with a channel, naming the field; empty when nothing is.
    static Status validate(const NotifyChannel &channel);
    // A webhook's URL; `secret`: read from stdin, never repeated in a message.
    static Status validateWebhookUrl(const QString &url, bool secret);
    // An address a mail server takes: something@something, no spaces or control characters
    // (a line break would let a value add headers of its own).
    static bool isMailAddress(const QString &address);
    // The addresses without repeats (compared without case), in their first order.
    static QStringList distinctAddresses(const QStringList &addresses);
    // Recipients of one channel or route: more is a mailing list's work.
    static constexpr int maxRecipients = 100;

    // A channel as an export carries it: its settings, never its secrets ("secretsLeftBehind"
    // says it has some); and back, for an import.
    static QJsonObject toExport(const NotifyChannel &channel);
    // Checked as `channel add` checks a channel (kind, encryption, body, URL, addresses, CA).
    static Result<NotifyChannel> fromExport(const QJsonObject &object);
    // An absolute path to a regular, readable file of PEM certificates.
    static Status validateCaFile(const QString &path);
    // Where its secrets are kept now (ChannelSecrets): set by `channel set --password-stdin`.
    Status setSecretKey(qint64 channelId, const QString &key);

    // The default e-mail channel is the only one: adding another default makes it so.
    Result<NotifyChannel> add(const NotifyChannel &channel);
    Result<NotifyChannel> byName(const QString &name) const;
    Result<NotifyChannel> byId(qint64 id) const;
    Result<QList<NotifyChannel>> list() const;
    // Writes a channel's settings again (flood control, recipients, format): not its name,
    // kind, URL or secrets.
    Status updateSettings(const NotifyChannel &channel);
    // Its routes and queued messages go with it.
    Status remove(const QString &name);

private:
    Result<NotifyChannel> fetchOne(const QString &where, const QVariant &key,
                                   const QString &notFound) const;

    Store &m_store;
};

} // namespace hg
