#pragma once

#include "domain/notification.h"

#include <QDialog>
#include <QList>
#include <QMap>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace hg {

// Adds a notification route: which events of a chain (or a project's chains, or every
// chain) go to which channel, and for e-mail to whom instead of the channel's own list.
class RouteDialog final : public QDialog
{
    Q_OBJECT

public:
    struct Scope
    {
        QString label; // "PROJECT/CHAIN", "PROJECT (every chain)", or the global one's
        qint64 projectId = 0;
        qint64 chainId = 0;
    };

    RouteDialog(const QList<Scope> &scopes, const QList<NotifyChannel> &channels,
                const QString &chosenScope, QWidget *parent = nullptr);

    NotifyRoute route() const;
    void accept() override;

private:
    void channelChosen();

    QList<Scope> m_scopes;
    QList<NotifyChannel> m_channels;
    QComboBox *m_scope;
    QComboBox *m_channel;
    QMap<NotifyEvent, QCheckBox *> m_events;
    QLineEdit *m_to;
    QLabel *m_problem;
};

} // namespace hg
