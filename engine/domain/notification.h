#pragma once

#include "base/enumnames.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace hg {

// Where a notification goes. Desktop is the tray of a running window (the chain's notify
// policy); e-mail and webhooks are sent by an engine from the outbox.
enum class ChannelKind { Email, Webhook, Desktop };
HG_ENUM_NAMES(ChannelKind, {ChannelKind::Email, "email"}, {ChannelKind::Webhook, "webhook"},
              {ChannelKind::Desktop, "desktop"});

// How an e-mail channel talks to its server. None is refused for any server but loopback:
// the password and the messages would cross a network in clear.
enum class SmtpSecurity { StartTls, Implicit, None };
HG_ENUM_NAMES(SmtpSecurity, {SmtpSecurity::StartTls, "starttls"},
              {SmtpSecurity::Implicit, "implicit"}, {SmtpSecurity::None, "none"});

// The body a webhook posts: Hourglass's own JSON (documented in the README), or shaped for a
// chat service's incoming webhook.
enum class WebhookFormat { Json, Slack, Discord, Teams, Ntfy };
HG_ENUM_NAMES(WebhookFormat, {WebhookFormat::Json, "json"}, {WebhookFormat::Slack, "slack"},
              {WebhookFormat::Discord, "discord"}, {WebhookFormat::Teams, "teams"},
              {WebhookFormat::Ntfy, "ntfy"});

// What a route listens for. Recovery: the first success after a failure. Output: the run
// printed anything (cron's rule for mail). One message per run and channel carries the
// strongest of a run's events (failure, recovery, success, output). Engine: an engine lost
// its lease, or the store was unreachable longer than a setting (global routes only).
enum class NotifyEvent { Failure, Recovery, Success, Output, Alert, Missed, Engine };
// Rows the deliverer adds itself (flood control): a digest of held messages, and the one
// message that says a channel's daily cap is reached.
inline constexpr char digestEvent[] = "digest";
inline constexpr char capEvent[] = "cap";
HG_ENUM_NAMES(NotifyEvent, {NotifyEvent::Failure, "failure"}, {NotifyEvent::Recovery, "recovery"},
              {NotifyEvent::Success, "success"}, {NotifyEvent::Output, "output"},
              {NotifyEvent::Alert, "alert"}, {NotifyEvent::Missed, "missed"},
              {NotifyEvent::Engine, "engine"});

enum class DeliveryState { Queued, Sent, Failed, Skipped, Held };
HG_ENUM_NAMES(DeliveryState, {DeliveryState::Queued, "queued"}, {DeliveryState::Sent, "sent"},
              {DeliveryState::Failed, "failed"}, {DeliveryState::Skipped, "skipped"},
              {DeliveryState::Held, "held"});

struct NotifyChannel
{
    qint64 id = 0;
    QString name;
    ChannelKind kind = ChannelKind::Email;
    // smtp://[USER@]HOST[:PORT] for e-mail; the webhook's URL, '' when it carries a token
    // (Slack's and Teams' do): then it is kept with the secrets.
    QString url;
    SmtpSecurity security = SmtpSecurity::StartTls;
    QString caFile; // PEM bundle the server's certificate is checked against; '' = the system's
    QString from;
    QStringList to;
    WebhookFormat format = WebhookFormat::Json;
    bool urlIsSecret = false;
    // Where its secrets are kept (ChannelSecrets): '' when it has none.
    QString secretKey;
    bool isDefault = false;
    // Flood control: past floodLimit messages in floodWindowSeconds, or dailyCap since the
    // engine's midnight, the channel's messages are held and one digest tells of them.
    // 0 turns either off.
    int floodLimit = 10;
    int floodWindowSeconds = 600;
    int dailyCap = 200;
    QDateTime createdAt;
};

// Which events of which chains go to a channel. A chain's routes replace its project's; a
// project's replace the global ones (projectId and chainId both 0).
struct NotifyRoute
{
    qint64 id = 0;
    // 0: the default e-mail channel, whichever it is when a message is written (crontab
    // MAILTO routes); while there is none, the route waits for one.
    qint64 channelId = 0;
    QString channelName; // read with the route, for listings
    qint64 projectId = 0;
    qint64 chainId = 0;
    QString scope; // "PROJECT/CHAIN", "PROJECT", or "" for the global routes; for listings
    QList<NotifyEvent> events;
    QStringList recipients; // e-mail addresses instead of the channel's own
};

// One message owed to one channel: a row of the outbox.
struct Delivery
{
    qint64 id = 0;
    qint64 channelId = 0;
    QString channelName;
    QString event; // NotifyEvent's name, or "test"
    qint64 runId = 0;
    qint64 chainId = 0;
    qint64 subjectId = 0; // the run, the alert or the ledger row the message is about
    QStringList recipients;
    DeliveryState state = DeliveryState::Queued;
    int attempts = 0;
    QDateTime nextAttemptAt;
    QString lastAnswer;
    QString subject;
    QString body; // composed at the first attempt, then sent alike at every retry
    QString deliveryId;
    QDateTime createdAt;
    QDateTime sentAt;
};

} // namespace hg
