#include "importdialog.h"

#include "importers/foreignimport.h"
#include "store/projectimporter.h"
#include "storereader.h"

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
namespace {

// A crontab or an export is kilobytes; a bigger file is not one.
constexpr qint64 maxImportBytes = qint64(64) * 1024 * 1024;

} // namespace

struct ImportDialog::Preview
{
    QString summary;
    std::optional<ImportReport> report;
    std::optional<ImportedDefinitions> converted;
    int wouldImport = 0;
};

ImportDialog::ImportDialog(Store &store, StoreReader &reader, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_reader(reader)
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
    m_kind->addItem(tr("systemd timer or path unit (.timer, .path, with its .service beside it)"),
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
    m_preview->setUniformRowHeights(true); // thousands of rows: no height asked of each
    m_preview->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    // Sized to fit the first rows and those in view, not every one of thousands.
    m_preview->header()->setResizeContentsPrecision(200);
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
        {QStringLiteral("systemd"), tr("systemd timer or path unit (*.timer *.path)")}};
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
    // A 3,000-line crontab is 3,000 rows: made apart and added at once, the icons looked up
    // once, the columns sized from the first rows (one at a time, with every row measured, the
    // window stood still for 850 ms).
    const QIcon converted = style()->standardIcon(QStyle::SP_DialogApplyButton);
    const QIcon leftOut = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon note = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    QList<QTreeWidgetItem *> rows;
    rows.reserve(report.items().size());
    for (const ImportReport::Item &item : report.items()) {
        auto *row = new QTreeWidgetItem;
        row->setText(0, item.where);
        switch (item.kind) {
        case ImportReport::Kind::Converted:
            row->setText(1, tr("chain %1").arg(item.chain));
            row->setText(2, item.schedule);
            row->setIcon(1, converted);
            break;
        case ImportReport::Kind::LeftOut:
            row->setText(1, tr("left out"));
            row->setText(2, item.text.isEmpty() ? item.message
                                                : tr("%1 — %2").arg(item.message, item.text));
            row->setIcon(1, leftOut);
            break;
        case ImportReport::Kind::Note:
            row->setText(1, tr("note"));
            row->setText(2, item.message);
            row->setIcon(1, note);
            break;
        }
        row->setToolTip(2, row->text(2));
        rows << row;
    }
    m_preview->clear();
    m_preview->addTopLevelItems(rows);
    m_preview->resizeColumnToContents(0);
    m_preview->resizeColumnToContents(1);
}

void ImportDialog::refresh()
{
    if (m_importing)
        return; // a field left while the import writes: its answer must still arrive
    const bool foreign = kind() != QLatin1String("hourglass");
    m_project->setEnabled(foreign);
    m_converted.reset();
    m_wouldImport = 0;
    m_import->setEnabled(false);
    m_preview->clear();
    const int generation = ++m_generation;
    m_busy = false;
    const QString path = m_file->text().trimmed();
    if (path.isEmpty()) {
        m_summary->setText(tr("Choose a file: nothing is written before Import."));
        return;
    }
    // Read here, so a FIFO or a device is refused before it could block a thread for good.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        m_summary->setText(tr("Cannot read %1: not a regular file").arg(path));
        return;
    }
    if (info.size() > maxImportBytes) {
        m_summary->setText(tr("Cannot read %1: larger than %2 MiB")
                               .arg(path)
                               .arg(maxImportBytes / (qint64(1024) * 1024)));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    m_bytes = file.read(maxImportBytes);
    if (foreign && m_project->text().trimmed().isEmpty())
        m_project->setText(kind());
    m_summary->setText(tr("Reading %1…").arg(path));
    m_busy = true;
    std::function<Result<Preview>(Store &)> work;
    if (!foreign) {
        work = [bytes = m_bytes](Store &store) -> Result<Preview> {
            const Result<ProjectImporter::Summary> checked =
                ProjectImporter(store).checkDocument(bytes);
            if (!checked)
                return Preview{checked.error().message, {}, {}, 0};
            return Preview{tr("Would import %1 project(s) with %2 chain(s), %3 task(s) and %4 "
                              "schedule(s).")
                               .arg(checked->projects)
                               .arg(checked->chains)
                               .arg(checked->tasks)
                               .arg(checked->schedules),
                           {},
                           {},
                           checked->chains};
        };
    } else {
        ForeignImport::Request request;
        request.kind = *ForeignImport::kindNamed(kind());
        request.bytes = m_bytes;
        request.path = path;
        request.project = m_project->text().trimmed();
        work = [request](Store &store) -> Result<Preview> {
            Result<ImportedDefinitions> converted = ForeignImport::convert(store, request);
            if (!converted)
                return Preview{converted.error().message, {}, {}, 0};
            Preview preview;
            preview.report = converted->report;
            if (const Status checked = ForeignImport::write(store, converted.value(), true);
                !checked) {
                preview.summary = tr("Cannot be imported: %1").arg(checked.error().message);
                return preview;
            }
            preview.wouldImport = int(converted->chains.size());
            const int leftOut = converted->report.count(ImportReport::Kind::LeftOut);
            preview.summary =
                leftOut == 0
                    ? tr("Would import %1 chain(s) into project %2; everything comes along.")
                          .arg(preview.wouldImport)
                          .arg(request.project)
                    : tr("Would import %1 chain(s) into project %2; %3 item(s) are left out "
                         "(marked above).")
                          .arg(preview.wouldImport)
                          .arg(request.project)
                          .arg(leftOut);
            preview.converted = std::move(converted.value());
            return preview;
        };
    }
    m_reader.read<Preview>(this, std::move(work), [this, generation](const Result<Preview> &read) {
        if (generation != m_generation)
            return; // the file, kind or project changed meanwhile
        m_busy = false;
        if (!read) {
            m_summary->setText(read.error().message);
            return;
        }
        showPreview(read.value());
    });
}

void ImportDialog::showPreview(const Preview &preview)
{
    if (preview.report)
        showItems(*preview.report);
    m_summary->setText(preview.summary);
    m_converted = preview.converted;
    m_wouldImport = preview.wouldImport;
    m_import->setEnabled(m_wouldImport > 0);
}

void ImportDialog::reject()
{
    if (!m_importing)
        QDialog::reject();
}

void ImportDialog::importNow()
{
    if (m_busy || m_wouldImport <= 0)
        return;
    m_busy = true;
    m_importing = true;
    m_import->setEnabled(false);
    m_summary->setText(tr("Importing %1 chain(s)…").arg(m_wouldImport));
    const int generation = ++m_generation;
    std::function<Result<int>(Store &)> work;
    if (m_converted) {
        work = [converted = *m_converted](Store &store) -> Result<int> {
            const Status written = ForeignImport::write(store, converted, false);
            return written ? Result<int>(0) : Result<int>(written.error());
        };
    } else {
        work = [bytes = m_bytes](Store &store) -> Result<int> {
            const Result<ProjectImporter::Summary> imported =
                ProjectImporter(store).importDocument(bytes);
            return imported ? Result<int>(0) : Result<int>(imported.error());
        };
    }
    m_reader.read<int>(this, std::move(work), [this, generation](const Result<int> &written) {
        if (generation != m_generation)
            return;
        m_busy = false;
        m_importing = false;
        if (!written) {
            m_summary->setText(tr("Nothing was imported: %1").arg(written.error().message));
            return;
        }
        m_importedChains = m_wouldImport;
        accept();
    });
}

} // namespace hg
