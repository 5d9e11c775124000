#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"
#include "keychain.h"

#include <QCoreApplication>

namespace hg {

// Where a connection's password is kept, and where it is read back from: the OS keychain
// first; where none answers, the client libraries' own files (PasswordFile). Never the
// store, the settings, a log line, argv or a child's environment.
class ConnectionSecrets final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ConnectionSecrets)

public:
    explicit ConnectionSecrets(Keychain keychain = Keychain(), QString homeDir = {});

    // The keychain key a profile's password is kept under.
    static QString keyFor(const ConnectionProfile &profile);

    // Keeps the password; sets profile.keychainKey when it went to the keychain (empty when
    // it went to a file). Returns where it went, for the user: "the keychain" or a path.
    Result<QString> store(ConnectionProfile &profile, const QString &password) const;
    // The password from the keychain, or empty: the client library then reads its files.
    Result<QString> lookup(const ConnectionProfile &profile) const;
    // Forgets the password wherever it was kept.
    Status forget(const ConnectionProfile &profile) const;

    // A PostgreSQL store's password from the keychain (StoreLocation's password source):
    // empty when none is kept or no keychain runs. Asked once per key and process, as an
    // engine reconnecting every few seconds must not ask the keychain each time.
    static QString storePassword(const QString &secretKey);

private:
    Keychain m_keychain;
    QString m_homeDir;
};

} // namespace hg
