#pragma once

#include "domain/chain.h"

#include <QWidget>

class QComboBox;
class QFrame;
class QPushButton;

namespace hg {

// Above the chain's canvas: a banner while the chain is switched off (with Enable), and its
// run settings in one row (notify, a run while one runs, how long runs are kept). Each change
// is told as the whole chain edited; the editor writes it.
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

private:
    QWidget *buildDisabledBanner();
    QWidget *buildSettings();
    void showConcurrency();

    Chain m_chain;
    QFrame *m_disabledBanner = nullptr;
    QComboBox *m_notify = nullptr;
    QComboBox *m_overlap = nullptr;
    QPushButton *m_retention = nullptr; // "History: …", opens the RetentionDialog
};

} // namespace hg
