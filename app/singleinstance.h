#pragma once

#include <QObject>
#include <QString>

class QLocalServer;

namespace hg {

// One desktop Hourglass per user and store: the first start listens on a local socket named
// after the user and the store; a later start finds it, asks it to come forward and ends.
// (Two GUIs on one SQLite store would fight over the engine lease.)
class SingleInstance final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SingleInstance)

public:
    // `key` tells stores apart (their location); the user's name is added.
    explicit SingleInstance(const QString &key, QObject *parent = nullptr);
    ~SingleInstance() override;

    // True: this is the first; it now listens. False: another one runs and was asked to
    // come forward.
    bool claim();
    QString serverName() const { return m_name; }
    // Whether a desktop Hourglass has this store open, asking it nothing (`hourglass restore`
    // must not replace a file under an open window).
    static bool isRunning(const QString &key);

Q_SIGNALS:
    // A later start asked this one to show its window.
    void activationRequested();

private:
    void readRequests();

    QString m_name;
    QLocalServer *m_server = nullptr;
};

} // namespace hg
