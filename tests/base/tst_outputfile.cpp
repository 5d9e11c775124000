#include "base/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hg;

// A file written by rename is written only over a regular file: a FIFO stays a FIFO, a
// folder is refused, a regular file is replaced whole. (Never a real device here: a faulty
// build would replace it for the whole machine.)
class TestOutputFile final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void regularFile_replacedWhole();
    void symlinkToFile_writesTheFileAndStaysALink();
    void failedWrite_leavesTheEarlierFile();
    void fifo_writtenDirectlyAndStaysAFifo();
    void fifo_refusedWhereOnlyRegularFilesMayBe();
    void symlinkToFifo_writtenThroughTheLink();
    void folder_refusedNamingIt();
    void emptyPath_refused();
    void checkRenameTarget_refusesAllButRegularFiles();
    void hardLinkedFile_writtenInPlaceEveryLinkSeesIt();
    void fileOfAnotherOwner_keepsItsOwnerGroupAndMode();
    void symlinkLoop_refusedNamingIt();
    void fullDisk_smallWriteFailsNamingItAndKeepsTheEarlierFile();

private:
    static bool isFifo(const QString &path);
    static QString makeFifo(const QTemporaryDir &dir);
};

bool TestOutputFile::isFifo(const QString &path)
{
    struct stat info = {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

QString TestOutputFile::makeFifo(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("pipe"));
    if (::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        return {};
    return path;
}

void TestOutputFile::regularFile_replacedWhole()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.json"));
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old contents that are longer");
    old.close();
    OutputFile file(path, OutputFile::Special::WriteDirectly);
    QVERIFY(file.open().ok());
    QVERIFY(!file.isDirect());
    QVERIFY(file.write("new"));
    QVERIFY(file.commit().ok());
    QFile read(path);
    QVERIFY(read.open(QIODevice::ReadOnly));
    QCOMPARE(read.readAll(), QByteArray("new"));
}

// Found by a hostile test: a rename over the link replaced the link with a regular file.
void TestOutputFile::symlinkToFile_writesTheFileAndStaysALink()
{
    QTemporaryDir dir;
    const QString real = dir.filePath(QStringLiteral("real"));
    const QString link = dir.filePath(QStringLiteral("link"));
    QFile old(real);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old");
    old.close();
    QVERIFY(QFile::link(real, link));
    OutputFile file(link, OutputFile::Special::Refuse);
    QVERIFY(file.open().ok());
    QVERIFY(file.write("new"));
    QVERIFY(file.commit().ok());
    QVERIFY(QFileInfo(link).isSymLink());
    QFile read(real);
    QVERIFY(read.open(QIODevice::ReadOnly));
    QCOMPARE(read.readAll(), QByteArray("new"));
    // A dangling link: the file it names is made, the link kept.
    const QString dangling = dir.filePath(QStringLiteral("dangling"));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("made")), dangling));
    OutputFile second(dangling, OutputFile::Special::Refuse);
    QVERIFY(second.open().ok());
    QVERIFY(second.write("made"));
    QVERIFY(second.commit().ok());
    QVERIFY(QFileInfo(dangling).isSymLink());
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("made"))));
}

void TestOutputFile::failedWrite_leavesTheEarlierFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.json"));
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("kept");
    old.close();
    {
        OutputFile file(path, OutputFile::Special::Refuse);
        QVERIFY(file.open().ok());
        QVERIFY(file.write("half"));
    } // never committed
    QFile read(path);
    QVERIFY(read.open(QIODevice::ReadOnly));
    QCOMPARE(read.readAll(), QByteArray("kept"));
}

void TestOutputFile::fifo_writtenDirectlyAndStaysAFifo()
{
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir);
    QVERIFY(!fifo.isEmpty());
    QByteArray received;
    std::thread reader([&] {
        QFile in(fifo);
        if (in.open(QIODevice::ReadOnly))
            received = in.readAll();
    });
    OutputFile file(fifo, OutputFile::Special::WriteDirectly);
    const Status opened = file.open();
    QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error().message));
    QVERIFY(file.isDirect());
    QVERIFY(file.write("through the pipe"));
    QVERIFY(file.commit().ok());
    reader.join();
    QCOMPARE(received, QByteArray("through the pipe"));
    QVERIFY(isFifo(fifo));
}

void TestOutputFile::fifo_refusedWhereOnlyRegularFilesMayBe()
{
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir);
    OutputFile file(fifo, OutputFile::Special::Refuse);
    const Status opened = file.open(); // must not block: nobody reads
    QVERIFY(!opened.ok());
    QVERIFY2(opened.error().message.contains(QStringLiteral("FIFO")),
             qPrintable(opened.error().message));
    QVERIFY(isFifo(fifo));
}

void TestOutputFile::symlinkToFifo_writtenThroughTheLink()
{
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir);
    const QString link = dir.filePath(QStringLiteral("link"));
    QVERIFY(QFile::link(fifo, link));
    QByteArray received;
    std::thread reader([&] {
        QFile in(fifo);
        if (in.open(QIODevice::ReadOnly))
            received = in.readAll();
    });
    OutputFile file(link, OutputFile::Special::WriteDirectly);
    QVERIFY(file.open().ok());
    QVERIFY(file.write("via link"));
    QVERIFY(file.commit().ok());
    reader.join();
    QCOMPARE(received, QByteArray("via link"));
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(isFifo(fifo));
}

void TestOutputFile::folder_refusedNamingIt()
{
    QTemporaryDir dir;
    OutputFile file(dir.path(), OutputFile::Special::WriteDirectly);
    const Status opened = file.open();
    QVERIFY(!opened.ok());
    QVERIFY(opened.error().message.contains(QStringLiteral("a folder")));
    QVERIFY(QFileInfo(dir.path()).isDir());
}

void TestOutputFile::emptyPath_refused()
{
    OutputFile file(QString(), OutputFile::Special::WriteDirectly);
    const Status opened = file.open();
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().message, QStringLiteral("no file named to write to"));
}

void TestOutputFile::checkRenameTarget_refusesAllButRegularFiles()
{
    QTemporaryDir dir;
    const QString fifo = makeFifo(dir);
    QVERIFY(!OutputFile::checkRenameTarget(fifo).ok());
    QVERIFY(!OutputFile::checkRenameTarget(dir.path()).ok());
    QVERIFY(!OutputFile::checkRenameTarget(QStringLiteral("/dev/null")).ok()); // only looked at
    QVERIFY(OutputFile::checkRenameTarget(dir.filePath(QStringLiteral("new"))).ok());
    QFile regular(dir.filePath(QStringLiteral("regular")));
    QVERIFY(regular.open(QIODevice::WriteOnly));
    regular.close();
    QVERIFY(OutputFile::checkRenameTarget(regular.fileName()).ok());
}

namespace {

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

ino_t inodeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_ino : 0;
}

} // namespace

// Found by a hostile test: written by rename, a file with other hard links became a new file,
// and the other links kept the old contents.
void TestOutputFile::hardLinkedFile_writtenInPlaceEveryLinkSeesIt()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.json"));
    const QString link = dir.filePath(QStringLiteral("link.json"));
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old contents, longer than the new ones");
    old.close();
    QCOMPARE(::link(QFile::encodeName(path).constData(), QFile::encodeName(link).constData()), 0);
    const ino_t inode = inodeOf(path);
    OutputFile file(link, OutputFile::Special::Refuse);
    QVERIFY(file.open().ok());
    QVERIFY(file.isInPlace());
    QVERIFY(file.write("new"));
    QCOMPARE(contentsOf(path), QByteArray("old contents, longer than the new ones")); // staged
    QVERIFY(file.commit().ok());
    QCOMPARE(contentsOf(path), QByteArray("new"));
    QCOMPARE(contentsOf(link), QByteArray("new"));
    QCOMPARE(inodeOf(path), inode);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2); // nothing left beside them
}

// Found by a hostile test: `export --output` run by root gave a user's file to root.
void TestOutputFile::fileOfAnotherOwner_keepsItsOwnerGroupAndMode()
{
    if (::geteuid() != 0)
        QSKIP("giving a file to another owner needs root");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("theirs.json"));
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old");
    old.close();
    const uid_t nobody = 65534;
    QCOMPARE(::chown(QFile::encodeName(path).constData(), nobody, nobody), 0);
    // The set-group-ID bit too (QSaveFile keeps only the rwx bits; helper-10).
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), 02640), 0);
    OutputFile file(path, OutputFile::Special::Refuse);
    QVERIFY(file.open().ok());
    QVERIFY(!file.isInPlace()); // root can give the new file the old owner: renamed whole
    QVERIFY(file.write("new"));
    QVERIFY(file.commit().ok());
    struct stat info = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
    QCOMPARE(info.st_uid, nobody);
    QCOMPARE(info.st_gid, gid_t(nobody));
    QCOMPARE(info.st_mode & 07777, mode_t(02640));
    QCOMPARE(contentsOf(path), QByteArray("new"));
}

// Found by helper-10: a loop of links was written through, and became a regular file.
void TestOutputFile::symlinkLoop_refusedNamingIt()
{
    QTemporaryDir dir;
    const QByteArray a = QFile::encodeName(dir.filePath(QStringLiteral("a")));
    const QByteArray b = QFile::encodeName(dir.filePath(QStringLiteral("b")));
    QCOMPARE(::symlink(b.constData(), a.constData()), 0);
    QCOMPARE(::symlink(a.constData(), b.constData()), 0);
    OutputFile file(QFile::decodeName(a), OutputFile::Special::WriteDirectly);
    const Status opened = file.open();
    QVERIFY(!opened.ok());
    QVERIFY2(opened.error().message.contains(QLatin1String("a loop of symbolic links")),
             qPrintable(opened.error().message));
    struct stat info = {};
    QCOMPARE(::lstat(a.constData(), &info), 0);
    QVERIFY(S_ISLNK(info.st_mode));
}

QTEST_GUILESS_MAIN(TestOutputFile)
// Found this session: on a full disk a small export (buffered, flushed only by QSaveFile's
// commit, which does not look at that flush) left an empty file and said it was written.
void TestOutputFile::fullDisk_smallWriteFailsNamingItAndKeepsTheEarlierFile()
{
    if (::geteuid() != 0)
        QSKIP("mounting a small filesystem needs root (scripts/test runs as root)");
    QTemporaryDir dir;
    const QString small = dir.filePath(QStringLiteral("small"));
    QVERIFY(QDir().mkpath(small));
    QCOMPARE(QProcess::execute(QStringLiteral("mount"),
                               {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                QStringLiteral("size=64k"), QStringLiteral("tmpfs"), small}),
             0);
    const auto unmount = qScopeGuard([&] {
        QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), small});
    });
    const QString earlier = small + QStringLiteral("/earlier.json");
    QFile old(earlier);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("kept");
    old.close();
    QFile filler(small + QStringLiteral("/filler"));
    QVERIFY(filler.open(QIODevice::WriteOnly));
    const QByteArray block(4096, 'x');
    while (filler.write(block) == block.size() && filler.flush()) {
    }
    filler.close();

    for (const QString &path : QStringList{small + QStringLiteral("/new.json"), earlier}) {
        OutputFile file(path, OutputFile::Special::Refuse);
        QVERIFY(file.open().ok());
        QVERIFY(file.write("{\"small\": true}\n")); // buffered: the disk is not asked yet
        const Status committed = file.commit();
        QVERIFY2(!committed.ok(), qPrintable(path));
        QVERIFY2(committed.error().message.contains(QStringLiteral("No space left on device")),
                 qPrintable(committed.error().message));
        QVERIFY2(committed.error().message.contains(path), qPrintable(committed.error().message));
    }
    QVERIFY(!QFileInfo::exists(small + QStringLiteral("/new.json")));
    QCOMPARE(contentsOf(earlier), QByteArray("kept"));

    // Written in place (another link to it): it was cut to what fitted, its old contents lost.
    const QString link = small + QStringLiteral("/link.json");
    QCOMPARE(::link(QFile::encodeName(earlier).constData(), QFile::encodeName(link).constData()),
             0);
    OutputFile linked(earlier, OutputFile::Special::Refuse);
    QVERIFY(linked.open().ok());
    QVERIFY(linked.isInPlace());
    QVERIFY(linked.write(QByteArray(32 * 1024, 'n')));
    const Status inPlace = linked.commit();
    QVERIFY(!inPlace.ok());
    QVERIFY2(inPlace.error().message.contains(QStringLiteral("left as it was")),
             qPrintable(inPlace.error().message));
    QCOMPARE(contentsOf(earlier), QByteArray("kept"));
    QCOMPARE(contentsOf(link), QByteArray("kept"));
}

#include "tst_outputfile.moc"
