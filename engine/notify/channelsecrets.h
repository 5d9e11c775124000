#pragma once

#include "base/result.h"
#include "remote/keychain.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace hg {

// Where a channel's secrets are kept: the SMTP password, a webhook's signing secret, and a
// webhook URL that carries a token (Slack's and Teams' are themselves secrets). The OS
// keychain first; where none answers (a headless server), a file only its owner may read
// (mode 0600, in a folder of mode 0700). Never the store, an export, a log, argv or a task's
// environment. All of a channel's secrets are one JSON object under one key.
class ChannelSecrets final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChannelSecrets)

public:
    // `folder`: where the fallback file goes (tests); the user's config folder by default.
    explicit ChannelSecrets(Keychain keychain = Keychain(), QString folder = {});

    static QString newKey(const QString &channelName);
    // The file used where no keychain runs.
    QString filePath() const;

    // Returns where they went, for the user: "the keychain" or the file's path.
    Result<QString> store(const QString &key, const QJsonObject &secrets) const;
    // Empty for an empty key; NotFound when the key names secrets no longer kept.
    Result<QJsonObject> lookup(const QString &key) const;
    Status forget(const QString &key) const;
    // A password alone (a SendMail task's) under a new key for `label`: returns the key.
    Result<QString> keepPassword(const QString &label, const QString &password) const;

private:
    Status prepareFolder() const;
    Result<QJsonObject> readFile() const;
    Status writeFile(const QJsonObject &all) const;

    Keychain m_keychain;
    QString m_folder;
};

} // namespace hg
