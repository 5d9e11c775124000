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

// File → Import…: a Hourglass export, a crontab, an exported Windows task or a systemd timer.
// What would be imported shows before anything is written — each chain and every line or
// element left out, with why — checked against the store as the import itself would be;
// Import then writes it all in one transaction.
class ImportDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ImportDialog(Store &store, QWidget *parent = nullptr);

    // KIND as --from names it: hourglass, crontab, windows-task, systemd.
    void setSource(const QString &kind, const QString &path);
    QString summary() const;
    int importedChains() const { return m_importedChains; }
    QTreeWidget *preview() const { return m_preview; }
    QPushButton *importButton() const { return m_import; }

private:
    void browse();
    void refresh();
    void importNow();
    void showItems(const ImportReport &report);
    QString kind() const;

    Store &m_store;
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
};

} // namespace hg
