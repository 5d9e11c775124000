#pragma once

#include <QSet>
#include <QTimer>
#include <QWidget>

#include <optional>

class QComboBox;
class QLineEdit;
class QTreeView;

namespace hg {

class StoreReader;

// Finds a chain among thousands: a field above the tree (matched against PROJECT/CHAIN, any
// case) and a choice of which chains to show (all, last run failed, running, switched off,
// missed runs waiting). It hides the tree's rows instead of putting a proxy model between
// the tree and its model, so every index the window and its editors use stays the model's.
// Re-applied, once, shortly after the model changes.
class TreeFilter final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TreeFilter)

public:
    enum class Show { All, Failed, Running, Disabled, MissedRuns, FiresWithinHour, FiresWithinDay };
    Q_ENUM(Show)

    explicit TreeFilter(QTreeView *tree, QWidget *parent = nullptr);
    // Reads which chains fire within the hour or day asked for (every schedule's next fire, on
    // its thread); without one that choice shows no chain.
    void setReader(StoreReader *reader) { m_reader = reader; }
    // While every schedule is paused nothing fires: a fire window shows no chain.
    void setSchedulesPaused(bool paused);
    // While a fire window is asked for: its chains are being read.
    bool isReading() const { return m_reading; }

    QLineEdit *field() const { return m_field; }
    QComboBox *choice() const { return m_show; }
    // Chains shown now (for the status and the tests).
    int shownChains() const { return m_shown; }
    void apply();
    // Go to → Find a chain (Ctrl+F).
    void focusField();
    // The id of every chain shown while something is asked for; none otherwise. The Overview
    // and Upcoming show the same chains.
    const std::optional<QSet<qint64>> &shownChainIds() const { return m_shownChains; }

Q_SIGNALS:
    void shownChainsChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applySoon();
    void enterTree();
    // The chains with a fire within `windowMs` from now, read again when the answer is older
    // than a minute (a fire time goes by) or the definitions changed.
    void readFiring(qint64 windowMs);

    struct Firing
    {
        qint64 windowMs = 0;
        qint64 readAtMs = 0;
        QSet<qint64> chainIds;
    };

    QTreeView *m_tree;
    QLineEdit *m_field;
    QComboBox *m_show;
    QTimer m_soon;
    QTimer m_refire;
    int m_shown = 0;
    std::optional<QSet<qint64>> m_shownChains;
    StoreReader *m_reader = nullptr;
    std::optional<Firing> m_firing;
    bool m_reading = false;
    bool m_readAgain = false;
    bool m_paused = false;
};

} // namespace hg
