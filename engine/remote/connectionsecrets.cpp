#include "connectionsecrets.h"

#include "passwordfile.h"

#include <QHash>
#include <QMutex>

namespace hg {

ConnectionSecrets::ConnectionSecrets(Keychain keychain, QString homeDir)
    : m_keychain(std::move(keychain))
    , m_homeDir(std::move(homeDir))
{}

QString ConnectionSecrets::keyFor(const ConnectionProfile &profile)
{
    return QStringLiteral("connection/%1").arg(profile.name);
}

Result<QString> ConnectionSecrets::store(ConnectionProfile &profile, const QString &password) const
{
    const QString key = keyFor(profile);
    const Status kept = m_keychain.write(key, password);
    if (kept) {
        profile.keychainKey = key;
        // An older copy in a file would be read by the client library first otherwise; if
        // it cannot be taken out, the keychain's copy is still the one passed to the driver.
        static_cast<void>(PasswordFile::remove(profile, m_homeDir));
        return tr("the keychain");
    }
    if (kept.error().kind != ErrorKind::Unavailable)
        return kept.error();
    profile.keychainKey.clear();
    if (Status written = PasswordFile::write(profile, password, m_homeDir); !written)
        return written.error();
    return PasswordFile::pathFor(profile, m_homeDir);
}

Result<QString> ConnectionSecrets::lookup(const ConnectionProfile &profile) const
{
    if (profile.keychainKey.isEmpty())
        return QString();
    Result<QString> secret = m_keychain.read(profile.keychainKey);
    if (!secret && secret.error().kind == ErrorKind::NotFound)
        return Error::notFound(
            tr("connection '%1': no password under '%2' in the keychain; set it again with "
               "hourglass remote password %1 --password-stdin")
                .arg(profile.name, profile.keychainKey));
    return secret;
}

Status ConnectionSecrets::forget(const ConnectionProfile &profile) const
{
    if (!profile.keychainKey.isEmpty()) {
        const Status removed = m_keychain.remove(profile.keychainKey);
        if (!removed && removed.error().kind != ErrorKind::Unavailable)
            return removed;
    }
    return PasswordFile::remove(profile, m_homeDir);
}

QString ConnectionSecrets::storePassword(const QString &secretKey)
{
    static QMutex mutex;
    static QHash<QString, QString> asked;
    const QMutexLocker lock(&mutex);
    const auto known = asked.constFind(secretKey);
    if (known != asked.constEnd())
        return *known;
    const Result<QString> secret = Keychain().read(secretKey);
    const QString password = secret ? secret.value() : QString();
    asked.insert(secretKey, password);
    return password;
}

} // namespace hg
