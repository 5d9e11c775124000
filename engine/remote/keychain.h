#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace QKeychain { // NOLINT(readability-identifier-naming): QtKeychain's own namespace
class Job;
}

namespace hg {

// Secrets in the desktop's keychain through QtKeychain: the Secret Service (GNOME Keyring,
// KWallet) on Linux, the Keychain on macOS, the Credential Store on Windows. Each call blocks
// the caller for at most the timeout while the job runs in the keychain's own thread, so it
// suits the command line, the engine and worker threads; a GUI calls it off its own thread.
class Keychain final
{
    Q_DECLARE_TR_FUNCTIONS(hg::Keychain)

public:
    static constexpr int defaultTimeoutMs = 10'000;
    explicit Keychain(QString service = QStringLiteral("Hourglass"),
                      int timeoutMs = defaultTimeoutMs);

    // NotFound when no secret is kept under `key`; Unavailable when no keychain answers
    // (no session bus, no Secret Service: a headless machine).
    Result<QString> read(const QString &key) const;
    Status write(const QString &key, const QString &secret) const;
    // Succeeds when nothing was kept under `key`.
    Status remove(const QString &key) const;

private:
    // The same, in the keychain's own thread.
    Result<QString> readHere(const QString &key) const;
    Status writeHere(const QString &key, const QString &secret) const;
    Status removeHere(const QString &key) const;
    Status execute(QKeychain::Job &job, const QString &key, const QString &what) const;

    QString m_service;
    int m_timeoutMs;
};

} // namespace hg
