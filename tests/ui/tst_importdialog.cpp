#include "store/chainrepository.h"
#include "storereader.h"
#include "testservers.h"
#include "teststore.h"
#include "window/importdialog.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <sys/stat.h>

using namespace hg;

// File → Import…: the preview shows what would come along and what would not before
// anything is written; Import writes it all.
class TestImportDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void crontab_previewWritesNothingThenImportWritesAll();
    void hourglassExport_checkedBeforeImport();
    void unreadableFile_saysWhyAndCannotImport();

private:
    QString write(const QString &name, const QByteArray &text);
    QTemporaryDir m_dir;
};

QString TestImportDialog::write(const QString &name, const QByteArray &text)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    return path;
}

void TestImportDialog::crontab_previewWritesNothingThenImportWritesAll()
{
    HG_TEST_STORE(t);
    const QString path = write(QStringLiteral("crontab"), "RANDOM_DELAY=10\n"
                                                          "30 2 * * * /usr/local/bin/backup.sh\n"
                                                          "@reboot /opt/agent\n");
    StoreReader reader(t.store().location(), true);
    ImportDialog dialog(t.store(), reader);
    dialog.setSource(QStringLiteral("crontab"), path);
    QTRY_VERIFY(!dialog.isBusy()); // read on the reader's thread
    QTreeWidget *preview = dialog.preview();
    QCOMPARE(preview->topLevelItemCount(), 3);
    QCOMPARE(preview->topLevelItem(0)->text(0), QStringLiteral("line 1"));
    QCOMPARE(preview->topLevelItem(0)->text(1), QStringLiteral("left out"));
    QCOMPARE(preview->topLevelItem(1)->text(1), QStringLiteral("chain backup.sh"));
    QCOMPARE(preview->topLevelItem(1)->text(2), QStringLiteral("30 2 * * *"));
    QCOMPARE(dialog.summary(), QStringLiteral("Would import 2 chain(s) into project crontab; 1 "
                                              "item(s) are left out (marked above)."));
    QVERIFY(ChainRepository(t.store()).list()->isEmpty()); // the preview wrote nothing
    QVERIFY(dialog.importButton()->isEnabled());
    dialog.importButton()->click();
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.importedChains(), 2);
    QCOMPARE(ChainRepository(t.store()).list()->size(), 2);
}

void TestImportDialog::hourglassExport_checkedBeforeImport()
{
    HG_TEST_STORE(t);
    const QString path =
        write(QStringLiteral("export.json"),
              R"({"format":"hourglass-export","version":1,"projects":[{"name":"p","chains":[)"
              R"({"name":"c","tasks":[{"name":"t","kind":"shell","command":"true"}]}]}]})");
    StoreReader reader(t.store().location(), true);
    ImportDialog dialog(t.store(), reader);
    dialog.setSource(QStringLiteral("hourglass"), path);
    QTRY_VERIFY(!dialog.isBusy()); // read on the reader's thread
    QCOMPARE(dialog.summary(), QStringLiteral("Would import 1 project(s) with 1 chain(s), 1 "
                                              "task(s) and 0 schedule(s)."));
    QVERIFY(ChainRepository(t.store()).list()->isEmpty());
    dialog.importButton()->click();
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(ChainRepository(t.store()).list()->size(), 1);

    // The same again: the chain exists now, which the check finds before anything is written.
    ImportDialog again(t.store(), reader);
    again.setSource(QStringLiteral("hourglass"), path);
    QTRY_VERIFY(!again.isBusy()); // read on the reader's thread
    QVERIFY2(again.summary().contains(QStringLiteral("already exists")),
             qPrintable(again.summary()));
    QVERIFY(!again.importButton()->isEnabled());
}

void TestImportDialog::unreadableFile_saysWhyAndCannotImport()
{
    HG_TEST_STORE(t);
    StoreReader reader(t.store().location(), true);
    ImportDialog dialog(t.store(), reader);
    dialog.setSource(QStringLiteral("systemd"), m_dir.filePath(QStringLiteral("none.timer")));
    QTRY_VERIFY(!dialog.isBusy()); // read on the reader's thread
    QVERIFY(dialog.summary().startsWith(QStringLiteral("Cannot read")));
    QVERIFY(!dialog.importButton()->isEnabled());
    const QString timer = write(QStringLiteral("lonely.timer"), "[Timer]\nOnCalendar=daily\n");
    dialog.setSource(QStringLiteral("systemd"), timer);
    QTRY_VERIFY(!dialog.isBusy()); // read on the reader's thread
    QCOMPARE(dialog.preview()->topLevelItemCount(), 1);
    QVERIFY(dialog.preview()->topLevelItem(0)->text(2).contains(QStringLiteral("cannot be read")));
    QVERIFY(!dialog.importButton()->isEnabled());
    // A FIFO would block whoever reads it, for good: refused, naming why, at once.
    const QString fifo = m_dir.filePath(QStringLiteral("pipe.timer"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    dialog.setSource(QStringLiteral("systemd"), fifo);
    QVERIFY(!dialog.isBusy());
    QVERIFY2(dialog.summary().contains(QStringLiteral("not a regular file")),
             qPrintable(dialog.summary()));
    QVERIFY(!dialog.importButton()->isEnabled());
}

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
