#pragma once

#include "base/result.h"
#include "store/storelocation.h"

#include <QObject>

#include <chrono>
#include <functional>
#include <memory>

class QWidget;

namespace hg {

// The desktop's first open of its store, made on a thread of its own before the window is
// built: SQLite's quick_check reads every page of the file (about 6 s for a store of 10 M
// runs) and a migration may rewrite it, and on the GUI thread nothing would paint meanwhile.
// When it takes longer than a moment, a small window says what is being checked; the
// window's own open then skips the check (Store::Options::alreadyChecked).
class StoreOpenCheck final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreOpenCheck)

public:
    using Work = std::function<Status()>;
    // `work`: what runs on the thread; by default the store's open (check and migration).
    explicit StoreOpenCheck(StoreLocation location, Work work = {},
                            std::chrono::milliseconds showAfter = std::chrono::milliseconds(400),
                            QObject *parent = nullptr);
    ~StoreOpenCheck() override;

    // Runs the work, with events handled until it ends. True when the store opened sound
    // (the window need not check it again); false with why in error() (the window's own open
    // then meets the problem and says so as it always did).
    bool run();
    const Status &error() const { return m_status; }
    // The user closed the window (or pressed Escape) while it checked: do not go on to open.
    bool cancelled() const { return m_cancelled; }
    // The window saying what is checked; null until shown.
    QWidget *window() const { return m_window.get(); }

Q_SIGNALS:
    void windowShown();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showWindow();

    StoreLocation m_location;
    Work m_work;
    std::chrono::milliseconds m_showAfter;
    Status m_status;
    bool m_cancelled = false;
    std::unique_ptr<QWidget> m_window;
};

} // namespace hg
