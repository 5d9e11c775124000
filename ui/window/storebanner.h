#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace hg {

// A bar across the top of the main window for what must be known about the store before
// anything else: that it is damaged and open read-only, with the ways out (export what can
// still be read, restore a backup), or that this window's engine does not run because
// another one serves the store, or that its file went away under the engine. Hidden otherwise.
class StoreBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreBanner)

public:
    explicit StoreBanner(QWidget *parent = nullptr);

    void showDamage(const QString &file, const QString &damage);
    void showEngineElsewhere(const QString &why);
    // The store's file was deleted or replaced while the window's engine served it.
    void showStoreGone(const QString &why);
    // The message as plain text (tests, screen readers).
    QString text() const;
    QPushButton *exportButton() const { return m_export; }
    QPushButton *restoreButton() const { return m_restore; }

Q_SIGNALS:
    void exportRequested();
    void restoreRequested();

private:
    void setLook(bool alarming);

    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_restore = nullptr;
};

} // namespace hg
