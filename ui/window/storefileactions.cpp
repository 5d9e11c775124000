#include "storefileactions.h"

#include "base/outputfile.h"
#include "store/projectexporter.h"
#include "store/store.h"
#include "store/storebackup.h"
#include "store/storerestore.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace hg {

StoreFileActions::StoreFileActions(Store &store, QWidget *window)
    : QObject(window)
    , m_store(store)
    , m_window(window)
    , m_export(new QAction(tr("&Export…"), this))
    , m_restore(new QAction(tr("Restore from &backup…"), this))
{
    m_export->setStatusTip(tr("Save every project, chain, task and schedule to a file that "
                              "hourglass import reads"));
    connect(m_export, &QAction::triggered, this, &StoreFileActions::exportInteractively);
    const bool sqlite = store.backend() == StoreBackend::Sqlite;
    m_restore->setEnabled(sqlite);
    m_restore->setStatusTip(sqlite ? tr("Put a backup in the place of this store")
                                   : tr("A PostgreSQL store is restored with pg_restore"));
    connect(m_restore, &QAction::triggered, this, [this] {
        const QString chosen = chooseBackup(m_window, m_store.location());
        if (!chosen.isEmpty())
            Q_EMIT restoreChosen(chosen);
    });
}

Result<QStringList> StoreFileActions::exportTo(const QString &file)
{
    ProjectExporter exporter(m_store);
    QStringList unreadable;
    if (m_store.isReadOnly())
        exporter.salvageInto(&unreadable);
    const Result<QJsonObject> document = exporter.exportAll();
    if (!document)
        return document.error();
    const QByteArray bytes = QJsonDocument(document.value()).toJson(QJsonDocument::Indented);
    // As the command line writes: never over the store itself, a device or a FIFO; a
    // hard-linked file in place, its owner kept.
    if (const Status refused = m_store.refuseAsTarget(file); !refused)
        return refused.error();
    OutputFile out(file, OutputFile::Special::Refuse);
    Status written = out.open();
    if (written && !out.write(bytes))
        written = Error::runtime(tr("Cannot write %1: %2").arg(file, out.errorString()));
    if (written)
        written = out.commit();
    if (!written)
        return written.error();
    return unreadable;
}

void StoreFileActions::exportInteractively()
{
    const QString file =
        QFileDialog::getSaveFileName(m_window, tr("Export projects"),
                                     QDir::homePath() + QStringLiteral("/hourglass-export.json"),
                                     tr("Hourglass export (*.json);;All files (*)"));
    if (file.isEmpty())
        return;
    const Result<QStringList> exported = exportTo(file);
    if (!exported) {
        QMessageBox::warning(m_window, tr("Export"), exported.error().message);
        return;
    }
    if (exported->isEmpty()) {
        Q_EMIT reported(tr("Exported every project to %1").arg(file));
        return;
    }
    QMessageBox::warning(m_window, tr("Export"),
                         tr("Exported what could be read to %1. Left out:\n%2")
                             .arg(file, exported->join(QLatin1Char('\n'))));
}

QString StoreFileActions::chooseBackup(QWidget *parent, const StoreLocation &store)
{
    if (store.backend() != StoreBackend::Sqlite) {
        QMessageBox::information(parent, tr("Restore from backup"),
                                 StoreBackup::postgresAdvice(store));
        return {};
    }
    const QFileInfo storeFile(store.sqlitePath());
    const QString name = storeFile.completeBaseName();
    // This store's own backups first: taken by hand, daily, or kept by an earlier restore.
    const QString file = QFileDialog::getOpenFileName(
        parent, tr("Restore from backup"), storeFile.absolutePath(),
        tr("Backups of this store (%1-backup-*.db %1-daily-*.db %1-before-restore-*.db);;"
           "Hourglass stores (*.db);;All files (*)")
            .arg(name));
    if (file.isEmpty())
        return {};
    // Checked before asking: a damaged or too new backup is never offered.
    const Result<int> sound = StoreRestore::check(file);
    if (!sound) {
        QMessageBox::warning(parent, tr("Restore from backup"), sound.error().message);
        return {};
    }
    const QString saved = QLocale().toString(QFileInfo(file).lastModified(), QLocale::LongFormat);
    QMessageBox ask(QMessageBox::Question, tr("Restore from backup"),
                    tr("Replace the store %1 with the backup %2, saved %3?\n\nThe store now in "
                       "use is kept beside it as %4-before-restore-DATE-TIME.db. Hourglass "
                       "closes the store, restores the backup and opens it again; it refuses "
                       "while an engine elsewhere serves the store.")
                        .arg(store.sqlitePath(), file, saved, name),
                    QMessageBox::Cancel, parent);
    QPushButton *restore = ask.addButton(tr("&Restore"), QMessageBox::AcceptRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    return ask.clickedButton() == restore ? file : QString();
}

} // namespace hg
