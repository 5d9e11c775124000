#include "importdialog.h"

#include "importers/foreignimport.h"
#include "store/projectimporter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>

namespace hg {

ImportDialog::ImportDialog(Store &store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
{
    setWindowTitle(tr("Import"));
    resize(760, 480);
    auto *form = new QFormLayout(this);
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Hourglass export (hourglass export)"), QStringLiteral("hourglass"));
    m_kind->addItem(tr("crontab (crontab -l, /etc/crontab, /etc/cron.d)"),
                    QStringLiteral("crontab"));
    m_kind->addItem(tr("Windows Task Scheduler task (schtasks /query /xml)"),
                    QStringLiteral("windows-task"));
    m_kind->addItem(tr("systemd timer (.timer, with its .service beside it)"),
                    QStringLiteral("systemd"));
    m_file = new QLineEdit(this);
    m_file->setPlaceholderText(tr("the file to import"));
    auto *browseButton = new QPushButton(tr("&Browse…"), this);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);
    m_project = new QLineEdit(this);
    m_project->setToolTip(tr("The project the chains go to; it is made if it does not exist"));
    m_preview = new QTreeWidget(this);
    m_preview->setColumnCount(3);
    m_preview->setHeaderLabels({tr("Where"), tr("Outcome"), tr("Details")});
    m_preview->setRootIsDecorated(false);
    m_preview->setAlternatingRowColors(true);
    m_preview->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_preview->setAccessibleName(tr("What the import would do"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("&From:"), m_kind);
    form->addRow(tr("Fi&le:"), fileRow);
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(fileRow)))
        label->setBuddy(m_file);
    form->addRow(tr("Into &project:"), m_project);
    form->addRow(m_preview);
    form->addRow(m_summary);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setEnabled(false);
    form->addRow(buttons);

    connect(browseButton, &QPushButton::clicked, this, &ImportDialog::browse);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_project->setText(kind() == QLatin1String("hourglass") ? QString() : kind());
        refresh();
    });
    connect(m_file, &QLineEdit::editingFinished, this, &ImportDialog::refresh);
    connect(m_project, &QLineEdit::editingFinished, this, &ImportDialog::refresh);
    connect(m_import, &QPushButton::clicked, this, &ImportDialog::importNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_project->setEnabled(false);
    refresh();
}

QString ImportDialog::kind() const
{
    return m_kind->currentData().toString();
}

void ImportDialog::setSource(const QString &kindName, const QString &path)
{
    m_kind->setCurrentIndex(qMax(0, m_kind->findData(kindName)));
    m_file->setText(path);
    refresh();
}

QString ImportDialog::summary() const
{
    return m_summary->text();
}

void ImportDialog::browse()
{
    static const QHash<QString, QString> filters{
        {QStringLiteral("hourglass"), tr("Hourglass export (*.json)")},
        {QStringLiteral("crontab"), tr("crontab (*)")},
        {QStringLiteral("windows-task"), tr("Task Scheduler XML (*.xml)")},
        {QStringLiteral("systemd"), tr("systemd timer (*.timer)")}};
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Import"), QFileInfo(m_file->text()).path(),
        filters.value(kind()) + QStringLiteral(";;") + tr("All files (*)"));
    if (!file.isEmpty()) {
        m_file->setText(file);
        refresh();
    }
}

void ImportDialog::showItems(const ImportReport &report)
{
    m_preview->clear();
    for (const ImportReport::Item &item : report.items()) {
        auto *row = new QTreeWidgetItem(m_preview);
        row->setText(0, item.where);
        switch (item.kind) {
        case ImportReport::Kind::Converted:
            row->setText(1, tr("chain %1").arg(item.chain));
            row->setText(2, item.schedule);
            row->setIcon(1, style()->standardIcon(QStyle::SP_DialogApplyButton));
            break;
        case ImportReport::Kind::LeftOut:
            row->setText(1, tr("left out"));
            row->setText(2, item.text.isEmpty() ? item.message
                                                : tr("%1 — %2").arg(item.message, item.text));
            row->setIcon(1, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            break;
        case ImportReport::Kind::Note:
            row->setText(1, tr("note"));
            row->setText(2, item.message);
            row->setIcon(1, style()->standardIcon(QStyle::SP_MessageBoxInformation));
            break;
        }
        row->setToolTip(2, row->text(2));
    }
    m_preview->resizeColumnToContents(0);
    m_preview->resizeColumnToContents(1);
}

void ImportDialog::refresh()
{
    const bool foreign = kind() != QLatin1String("hourglass");
    m_project->setEnabled(foreign);
    m_converted.reset();
    m_wouldImport = 0;
    m_import->setEnabled(false);
    m_preview->clear();
    const QString path = m_file->text().trimmed();
    if (path.isEmpty()) {
        m_summary->setText(tr("Choose a file: nothing is written before Import."));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    m_bytes = file.readAll();
    if (!foreign) {
        const Result<ProjectImporter::Summary> checked =
            ProjectImporter(m_store).checkDocument(m_bytes);
        if (!checked) {
            m_summary->setText(checked.error().message);
            return;
        }
        m_wouldImport = checked->chains;
        m_summary->setText(tr("Would import %1 project(s) with %2 chain(s), %3 task(s) and %4 "
                              "schedule(s).")
                               .arg(checked->projects)
                               .arg(checked->chains)
                               .arg(checked->tasks)
                               .arg(checked->schedules));
        m_import->setEnabled(m_wouldImport > 0);
        return;
    }
    if (m_project->text().trimmed().isEmpty())
        m_project->setText(kind());
    ForeignImport::Request request;
    request.kind = *ForeignImport::kindNamed(kind());
    request.bytes = m_bytes;
    request.path = path;
    request.project = m_project->text().trimmed();
    Result<ImportedDefinitions> converted = ForeignImport::convert(m_store, request);
    if (!converted) {
        m_summary->setText(converted.error().message);
        return;
    }
    showItems(converted->report);
    if (const Status checked = ForeignImport::write(m_store, converted.value(), true); !checked) {
        m_summary->setText(tr("Cannot be imported: %1").arg(checked.error().message));
        return;
    }
    m_wouldImport = int(converted->chains.size());
    const int leftOut = converted->report.count(ImportReport::Kind::LeftOut);
    m_summary->setText(leftOut == 0
                           ? tr("Would import %1 chain(s) into project %2; everything comes along.")
                                 .arg(m_wouldImport)
                                 .arg(request.project)
                           : tr("Would import %1 chain(s) into project %2; %3 item(s) are left out "
                                "(marked above).")
                                 .arg(m_wouldImport)
                                 .arg(request.project)
                                 .arg(leftOut));
    m_converted = std::move(converted.value());
    m_import->setEnabled(m_wouldImport > 0);
}

void ImportDialog::importNow()
{
    Status written;
    if (m_converted) {
        written = ForeignImport::write(m_store, *m_converted, false);
    } else {
        const Result<ProjectImporter::Summary> imported =
            ProjectImporter(m_store).importDocument(m_bytes);
        written = imported ? Status{} : Status(imported.error());
    }
    if (!written) {
        m_summary->setText(tr("Nothing was imported: %1").arg(written.error().message));
        m_import->setEnabled(false);
        return;
    }
    m_importedChains = m_wouldImport;
    accept();
}

} // namespace hg
