#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "store/chaintriggerrepository.h"
#include "store/filetriggerrepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/vfs.h>

using namespace hg;

// A file trigger on a FUSE mount (issue 36): inotify sees only what is done through the
// mount, not what changes behind it (another machine's write on a network filesystem; here
// a write to the folder bindfs mirrors), so the engine polls such a folder by itself and
// says so on the trigger. A real FUSE filesystem (bindfs) on a real kernel.
class TestFileTriggerMount final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void fuseMount_isPolled_andSeesWhatChangedBehindIt();
    void cleanupTestCase();

private:
    static bool isFuse(const QString &path);
    QTemporaryDir m_dir;
    QString m_mount;
};

bool TestFileTriggerMount::isFuse(const QString &path)
{
    struct statfs fs
    {
    };
    return ::statfs(QFile::encodeName(path).constData(), &fs) == 0
           && static_cast<unsigned long>(fs.f_type) == 0x65735546UL;
}

void TestFileTriggerMount::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!QFileInfo::exists(QStringLiteral("/dev/fuse")))
        QSKIP("this kernel or container offers no FUSE (/dev/fuse): the test does not apply");
    const QString bindfs = QStandardPaths::findExecutable(QStringLiteral("bindfs"));
    if (bindfs.isEmpty()) {
        if (test::requireServers())
            QFAIL("bindfs is not installed (scripts/test installs it)");
        QSKIP("bindfs is not installed");
    }
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("behind")));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("mount")));
    m_mount = m_dir.path() + QStringLiteral("/mount");
    QProcess mount;
    mount.start(bindfs, {QStringLiteral("--no-allow-other"),
                         m_dir.path() + QStringLiteral("/behind"), m_mount});
    QVERIFY(mount.waitForFinished(20000));
    QVERIFY2(mount.exitCode() == 0, mount.readAllStandardError().constData());
    QVERIFY(isFuse(m_mount));
}

void TestFileTriggerMount::cleanupTestCase()
{
    if (!m_mount.isEmpty() && isFuse(m_mount))
        QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), m_mount});
}

void TestFileTriggerMount::fuseMount_isPolled_andSeesWhatChangedBehindIt()
{
    HG_TEST_STORE(t);
    Chain c = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    StoreQuery q(t.store(), QStringLiteral("UPDATE chain SET client_name = 'files' WHERE id = ?"));
    q.bind(c.id);
    QVERIFY(q.exec(QStringLiteral("test")));
    ChainTrigger spec;
    spec.kind = TriggerKind::File;
    spec.chainId = c.id;
    spec.file.glob = m_mount + QStringLiteral("/*.csv");
    spec.file.settleMs = 200;
    spec.file.maxPerMinute = 0;
    const Result<ChainTrigger> trigger = ChainTriggerRepository(t.store()).add(spec);
    QVERIFY(trigger);
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        FileTriggerRepository(t.store()).baselineAt(trigger->id).value().has_value(), 10000);
    const QString note = ChainTriggerRepository(t.store()).byId(trigger->id)->watchNote;
    QVERIFY2(note.startsWith(QStringLiteral("polled every 5 s: ")) && note.contains(m_mount)
                 && note.contains(QStringLiteral("is on FUSE")),
             qPrintable(note));
    // Written behind the mount: no event reaches the mount's inotify; the poll sees it.
    QFile file(m_dir.path() + QStringLiteral("/behind/remote.csv"));
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("from elsewhere") > 0);
    file.close();
    RunFilter filter;
    filter.chainId = c.id;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).list(filter)->size(), 1, 20000);
    QCOMPARE(RunRepository(t.store()).list(filter)->constFirst().parameters.value(
                 QLatin1String("trigger.path")),
             QJsonValue(m_mount + QStringLiteral("/remote.csv")));
}

QTEST_GUILESS_MAIN(TestFileTriggerMount)
#include "tst_filetriggermount.moc"
