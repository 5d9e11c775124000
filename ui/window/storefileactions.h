#pragma once

#include "base/result.h"

#include <QObject>
#include <QStringList>

class QAction;
class QWidget;

namespace hg {

class Store;
class StoreLocation;

// File → Export… and File → Restore from backup…: the store as a whole. Export writes every
// project to a file (from a damaged store, what can still be read, naming what was left
// out). Restore picks a backup, checks it and asks first; the restore itself is the
// application's, which must close the store before the file is replaced.
class StoreFileActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreFileActions)

public:
    StoreFileActions(Store &store, QWidget *window);

    QAction *exportAction() const { return m_export; }
    QAction *restoreAction() const { return m_restore; }
    // Writes the export to `file`; what could not be read is returned ("ops/nightly: why").
    Result<QStringList> exportTo(const QString &file);
    // Asks for a backup of `store`, checks it and confirms; empty when cancelled or refused.
    static QString chooseBackup(QWidget *parent, const StoreLocation &store);

Q_SIGNALS:
    void restoreChosen(const QString &backupFile);
    // The outcome of an export, for the status bar.
    void reported(const QString &message);

private:
    void exportInteractively();

    Store &m_store;
    QWidget *m_window = nullptr;
    QAction *m_export = nullptr;
    QAction *m_restore = nullptr;
};

} // namespace hg
