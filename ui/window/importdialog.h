#pragma once

#include "importers/importeddefinitions.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace hg {

class Store;
class StoreReader;

// File → Import…: a Hourglass export, a crontab, an exported Windows task or a systemd timer.
// What would be imported shows before anything is written — each chain and every line or
// element left out, with why — checked against the store as the import itself would be;
// Import then writes it all in one transaction. The conversion, the check and the import run
// on the store reader's thread: a 3,000-line crontab never freezes the window.
class ImportDialog final : public QDialog
{
    Q_OBJECT

public:
    ImportDialog(Store &store, StoreReader &reader, QWidget *parent = nullptr);

    // KIND as --from names it: hourglass, crontab, windows-task, systemd.
    void setSource(const QString &kind, const QString &path);
    QString summary() const;
    int importedChains() const { return m_importedChains; }
    // A conversion or an import is under way on the reader's thread.
    bool isBusy() const { return m_busy; }
    QTreeWidget *preview() const { return m_preview; }
    QPushButton *importButton() const { return m_import; }

protected:
    // Not while the import writes: it would go on unseen, and the window not show it.
    void reject() override;

private:
    void browse();
    void refresh();
    void importNow();
    void showItems(const ImportReport &report);
    struct Preview; // what refresh() found, read off the GUI thread
    void showPreview(const Preview &preview);
    QString kind() const;

    Store &m_store;
    StoreReader &m_reader;
    QComboBox *m_kind = nullptr;
    QLineEdit *m_file = nullptr;
    QLineEdit *m_project = nullptr;
    QTreeWidget *m_preview = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_import = nullptr;
    QByteArray m_bytes;
    std::optional<ImportedDefinitions> m_converted; // a foreign file, converted
    int m_wouldImport = 0;
    int m_importedChains = 0;
    int m_generation = 0; // answers to an older refresh() are dropped
    bool m_busy = false;
    bool m_importing = false;
};

} // namespace hg
