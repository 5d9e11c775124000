#pragma once

#include "api/apiserver.h"

#include <QList>
#include <QToolButton>

namespace hg {

// The local API in the status bar: off, where it listens (and a warning while it serves plain
// HTTP to the network), or why it could not start. Pressed, it lists the last requests it
// answered: when, which, who (the token's name), the status and how long it took.
class ApiStatusButton final : public QToolButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiStatusButton)

public:
    explicit ApiStatusButton(QWidget *parent = nullptr);

    static constexpr qsizetype kept = 50;
    void showOff();
    void showListening(const QString &url, bool insecure);
    void showFailed(const QString &why);
    void addServed(const QList<hg::ApiServedRequest> &requests);
    const QList<ApiServedRequest> &served() const { return m_served; }
    // The list as the dialog shows it (tests read it without opening one).
    QString describeServed() const;

private:
    void showRequests();

    QList<ApiServedRequest> m_served; // oldest first
};

} // namespace hg
