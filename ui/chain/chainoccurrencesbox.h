#pragma once

#include "base/result.h"
#include "domain/alert.h"
#include "occurrencesmodel.h"
#include "scheduler/missedrunsinbox.h"

#include <QGroupBox>

class QLabel;
class QPushButton;

namespace hg {

class OccurrenceStrip;
class Store;
class StoreReader;
class WrappedLabel;

// What became of the chain's fire times in the last 24 hours: the strip of occurrences, the
// effective cadence of each schedule beside its configured one, and, when the misfire policy
// ask left runs waiting, a bar with their count and a button to decide (MissedRunsDialog).
class ChainOccurrencesBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainOccurrencesBox)

public:
    explicit ChainOccurrencesBox(Store &store, QWidget *parent = nullptr);

    // With a reader, what the box shows is read on its thread (one chain's runs ending every
    // second across a network held the window 100 ms a second); without one, at once.
    void setReader(StoreReader *reader) { m_reader = reader; }
    void showChain(qint64 chainId);
    // Reads the chain's occurrences and inbox again (a run ended, the engine missed a fire).
    void refresh();
    bool isReading() const { return m_reading; }
    // Opens the decision on the waiting missed runs (the bar's button).
    void decideMissed();
    // Opens the chain's alert rules (the "Alerts: …" button); OK saves them.
    void editAlerts();
    QPushButton *alertsButton() const { return m_alertsButton; }

    OccurrencesModel *occurrences() const { return m_occurrences; }
    OccurrenceStrip *strip() const { return m_strip; }
    QString cadenceText() const;
    QString inboxText() const;
    qint64 waitingCount() const { return m_waiting.count; }

Q_SIGNALS:
    void runActivated(qint64 runId);
    // Missed runs were queued or dismissed: the engine should look, the badges count again.
    void missedRunsDecided(qint64 chainId);

private:
    // Everything the box shows, read as a value (any thread, with that thread's store).
    struct Read
    {
        qint64 chainId = 0;
        AlertRules alerts;
        OccurrencesModel::Span strip;
        QStringList cadence; // a line per schedule
        MissedRunsInbox::Waiting waiting;
    };
    static Result<Read> readFor(Store &store, qint64 chainId, qint64 nowMs);
    void apply(const Read &read);

    Store &m_store;
    StoreReader *m_reader = nullptr;
    bool m_reading = false;
    bool m_again = false;
    int m_asked = 0; // the newest read asked; an answer for an older one is not shown
    qint64 m_chainId = 0;
    OccurrencesModel *m_occurrences;
    OccurrenceStrip *m_strip;
    WrappedLabel *m_cadence;
    QWidget *m_inbox;
    WrappedLabel *m_inboxText; // wrapped: "99 missed runs wait…" was cut in the pane
    QPushButton *m_decide;
    QPushButton *m_alertsButton;
    MissedRunsInbox::Waiting m_waiting;
};

} // namespace hg
