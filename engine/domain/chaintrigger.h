#pragma once

#include "base/enumnames.h"
#include "desktoptriggerspec.h"
#include "filetriggerspec.h"
#include "webhooktriggerspec.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace hg {

// What an 'after' trigger waits for in its upstream runs' ends: success; failure (a
// timeout counts); or any end (a cancel too).
enum class TriggerOn { Succeeded, Failed, Finished };
HG_ENUM_NAMES(TriggerOn, {TriggerOn::Succeeded, "succeeded"}, {TriggerOn::Failed, "failed"},
              {TriggerOn::Finished, "finished"});

enum class TriggerKind { After, File, Desktop, Webhook };
HG_ENUM_NAMES(TriggerKind, {TriggerKind::After, "after"}, {TriggerKind::File, "file"},
              {TriggerKind::Desktop, "desktop"}, {TriggerKind::Webhook, "webhook"});

// A start of a chain that is not the clock (migration 016). After: when a run of an upstream
// chain ends in `on`; with several upstreams and `withinMs` above 0, once each has ended so
// within that window of the others (Kestra's preconditions). The store itself writes the
// run, in the transaction that ends the upstream run, keyed by that run: exactly one
// downstream run per upstream end, on any number of engines, across any restart.
// File (migration 017): files matching a glob that settled (FileTriggerSpec); the engine
// that watches them writes the runs, keyed by the file's version (FileTriggerRepository).
struct ChainTrigger
{
    struct Upstream
    {
        qint64 chainId = 0;
        QString path; // PROJECT/CHAIN, read with the trigger
    };

    qint64 id = 0;
    qint64 chainId = 0;
    QString path; // the chain it starts, PROJECT/CHAIN, read with the trigger
    TriggerKind kind = TriggerKind::After;
    QList<Upstream> upstreams;
    TriggerOn on = TriggerOn::Succeeded;
    qint64 withinMs = 0; // 0: any one upstream's end starts a run
    FileTriggerSpec file;
    DesktopTriggerSpec desktop;
    WebhookTriggerSpec webhook; // Webhook (migration 019): a signed POST to /hooks/<id>
    // What the watching engine says of it now: "" all is well; the folder gone, unreadable.
    QString watchNote;
    QDateTime watchNoteAt;
    bool paused = false;
    QDateTime createdAt;
};

} // namespace hg
