#pragma once

#include "domain/chain.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFrame;
class QGridLayout;
class QPushButton;

namespace hg {

// Above the chain's canvas: a banner while the chain is switched off (with Enable), and its
// run settings in as many rows as its width needs (notify, how long runs are kept, a run
// while one runs, whether it needs a network). Each change is told as the whole chain edited; the
// editor writes it.
class ChainSettingsBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainSettingsBar)

public:
    explicit ChainSettingsBar(QWidget *parent = nullptr);

    // shown: a chain is selected (else the banner stays hidden).
    void showChain(const Chain &chain, bool shown);

Q_SIGNALS:
    void chainEdited(const hg::Chain &chain);
    // Its notification routes (Settings → Notifications, for this chain).
    void channelsRequested(qint64 chainId);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *buildDisabledBanner();
    void relayoutSettings();
    QWidget *buildSettings();
    void showConcurrency();

    Chain m_chain;
    QFrame *m_disabledBanner = nullptr;
    QComboBox *m_notify = nullptr;
    QComboBox *m_overlap = nullptr;
    QCheckBox *m_needsNetwork = nullptr;
    QPushButton *m_retention = nullptr; // "History: …", opens the RetentionDialog
    QGridLayout *m_settings = nullptr;
    QList<QWidget *> m_settingGroups; // Notify, the History button, A run while one runs
    QList<int> m_settingRows;         // the row each group is on now
};

} // namespace hg
