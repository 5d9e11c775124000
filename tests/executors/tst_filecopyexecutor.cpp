#include "executorrun.h"
#include "executors/filecopyexecutor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace hg;

// The CopyFile builtin: all of the file or none of it at the destination.
class TestFileCopyExecutor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void copy_writesTheWholeFile();
    void symlinkDestination_copiesIntoItsFile();
    void existingDestination_isKeptUnlessOverwrite();
    void missingSource_failsNamingIt();
    void fifoDestination_refusedAndLeftAFifo();
    void hardLinkedDestination_everyLinkGetsTheCopy();
    void destinationIsTheSourceByAnotherLink_refusedAndKept();

private:
    static void write(const QString &path, const QByteArray &content);
    static QByteArray read(const QString &path);
};

void TestFileCopyExecutor::write(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

QByteArray TestFileCopyExecutor::read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void TestFileCopyExecutor::copy_writesTheWholeFile()
{
    QTemporaryDir dir;
    const QByteArray content(3 * 1024 * 1024, 'k');
    write(dir.filePath(QStringLiteral("a")), content);
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")),
                              false, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QCOMPARE(read(dir.filePath(QStringLiteral("b"))), content);
    QVERIFY(run.text().contains(QLatin1String("3145728 bytes")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2); // no partial file left
}

// Found by a hostile test: "overwrite": true replaced the link itself with a regular file.
void TestFileCopyExecutor::symlinkDestination_copiesIntoItsFile()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("a")), "new");
    write(dir.filePath(QStringLiteral("real")), "old");
    QVERIFY(
        QFile::link(dir.filePath(QStringLiteral("real")), dir.filePath(QStringLiteral("link"))));
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")),
                              dir.filePath(QStringLiteral("link")), true, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("link"))).isSymLink());
    QCOMPARE(read(dir.filePath(QStringLiteral("real"))), QByteArray("new"));
}

void TestFileCopyExecutor::existingDestination_isKeptUnlessOverwrite()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("a")), "new");
    write(dir.filePath(QStringLiteral("b")), "old");
    {
        FileCopyExecutor executor(dir.filePath(QStringLiteral("a")),
                                  dir.filePath(QStringLiteral("b")), false, 0);
        const test::ExecutorRun run = test::runExecutor(executor);
        QCOMPARE(run.outcome.state, RunState::Failed);
        QVERIFY(run.outcome.error.contains(QLatin1String("exists")));
        QCOMPARE(read(dir.filePath(QStringLiteral("b"))), QByteArray("old"));
    }
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")),
                              true, 0);
    QCOMPARE(test::runExecutor(executor).outcome.state, RunState::Succeeded);
    QCOMPARE(read(dir.filePath(QStringLiteral("b"))), QByteArray("new"));
}

void TestFileCopyExecutor::missingSource_failsNamingIt()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("nope"));
    FileCopyExecutor executor(missing, dir.filePath(QStringLiteral("b")), false, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QCOMPARE(run.outcome.error, QStringLiteral("%1 is not a file").arg(missing));
}

// The copy is renamed into place: over a FIFO (or a device) that would leave a regular file
// where the FIFO was, and its reader waiting forever.
void TestFileCopyExecutor::fifoDestination_refusedAndLeftAFifo()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("a")), "data");
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")), fifo, true, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("FIFO")), qPrintable(run.outcome.error));
    struct stat info = {};
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));
}

// Found by a hostile test: the copy was renamed over the destination, whose other hard links
// kept the old contents.
void TestFileCopyExecutor::hardLinkedDestination_everyLinkGetsTheCopy()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("a")), "the copy");
    write(dir.filePath(QStringLiteral("b")), "old");
    QCOMPARE(::link(QFile::encodeName(dir.filePath(QStringLiteral("b"))).constData(),
                    QFile::encodeName(dir.filePath(QStringLiteral("c"))).constData()),
             0);
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")),
                              true, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QCOMPARE(read(dir.filePath(QStringLiteral("b"))), QByteArray("the copy"));
    QCOMPARE(read(dir.filePath(QStringLiteral("c"))), QByteArray("the copy"));
}

// Written in place, a destination that is the source under another name would be emptied
// before it was read.
void TestFileCopyExecutor::destinationIsTheSourceByAnotherLink_refusedAndKept()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("a")), "precious");
    QCOMPARE(::link(QFile::encodeName(dir.filePath(QStringLiteral("a"))).constData(),
                    QFile::encodeName(dir.filePath(QStringLiteral("b"))).constData()),
             0);
    FileCopyExecutor executor(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")),
                              true, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("are the same file")),
             qPrintable(run.outcome.error));
    QCOMPARE(read(dir.filePath(QStringLiteral("a"))), QByteArray("precious"));
}

QTEST_GUILESS_MAIN(TestFileCopyExecutor)
#include "tst_filecopyexecutor.moc"
