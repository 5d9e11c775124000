#pragma once

#include "base/canceltoken.h"
#include "base/result.h"
#include "domain/notification.h"
#include "routedialog.h"

#include <QDialog>
#include <QSet>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTimer;

namespace hg {

class Store;
class StoreReader;

// Settings → Notifications: the channels (add, change their flood control, test, remove),
// the routes that send chains' events to them, and the deliveries (the outbox: what was sent,
// what waits, what failed and the receiver's answer). What it shows is read on the reader's
// thread; what it changes is written on the window's connection. The command line's channel,
// notify and deliveries commands do the same.
class NotificationsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Channels, Routes, Deliveries };

    // `reader` may be null (read on the window's connection then).
    NotificationsDialog(Store &store, StoreReader *reader, QWidget *parent = nullptr);
    ~NotificationsDialog() override;

    void showPage(Page page);
    // The scope a new route starts with (a chain the window has selected): "PROJECT/CHAIN".
    void setChosenScope(const QString &path) { m_chosenScope = path; }
    // True until the last read's answer is shown (tests wait for it).
    bool isReading() const { return m_reading > 0; }

    QTableWidget *channelsTable() const { return m_channels; }
    QTableWidget *routesTable() const { return m_routes; }
    QTableWidget *deliveriesTable() const { return m_deliveries; }
    QLabel *statusLabel() const { return m_status; }

public Q_SLOTS:
    void refresh();
    void addChannel();
    void editChannel();
    void testChannel();
    void removeChannel();
    void addRoute();
    void removeRoute();

private:
    struct Snapshot
    {
        QList<NotifyChannel> channels;
        QList<NotifyRoute> routes;
        QList<Delivery> deliveries;
        int failed = 0;
    };
    template<typename T>
    void read(std::function<Result<T>(Store &)> work, std::function<void(const Result<T> &)> done);
    void showSnapshot(const Snapshot &snapshot);
    void report(const QString &message);
    std::optional<NotifyChannel> selectedChannel() const;

    Store &m_store;
    StoreReader *m_reader;
    QString m_chosenScope;
    Snapshot m_shown;
    int m_reading = 0;
    QTabWidget *m_tabs;
    QTableWidget *m_channels;
    QTableWidget *m_routes;
    QTableWidget *m_deliveries;
    QComboBox *m_stateFilter;
    QPushButton *m_edit;
    QPushButton *m_test;
    QPushButton *m_removeChannel;
    QPushButton *m_removeRoute;
    QLabel *m_status;
    QTimer *m_poll;
    bool m_scrolledToScope = false;
    QSet<qint64> m_testing; // channels whose test is under way
    std::shared_ptr<CancelToken> m_cancel;
};

} // namespace hg
