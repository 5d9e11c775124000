#include "clisandbox.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>

// The edges of the command line and `serve`, through the real binary on a SQLite store, each
// as a user met it: a FIFO replaced by a file, a serve that ignored SIGTERM after its chain
// was removed mid-run, a task that waited forever for stdin, a timeout that wrapped, a
// `run --wait` that waited forever on a killed engine or failed a successful self-destructing
// run, a password kept in plain text, a store folder anyone could write.
class TestEdges final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void export_toFifoWritesThroughAndLeavesTheFifo();
    void output_cutShortExitsOneSayingWhy();
    void chainRemove_refusedWhileItsRunRunsAndServeStillStops();
    void task_stdinEndsAtOnce();
    void timeout_beyondIntMillisecondsDoesNotFireEarly();
    void numbers_outOfRangeNamedAsSuch();
    void passwords_refusedInOptionsAndInTheDbUrl();
    void storeFolder_writableByOthersIsTightened();
    void signal_namedWhenATaskIsKilled();
    void retention_showAndApplyTakeAChain();
    void import_aServiceAloneImportsItsCommands();

private:
    using Output = hg::test::CliSandbox::Output;
    void define(const QList<QStringList> &commands);

    std::unique_ptr<hg::test::CliSandbox> m_cli;
};

void TestEdges::init()
{
    m_cli = std::make_unique<hg::test::CliSandbox>(QStringLiteral(HOURGLASS_BINARY));
    QVERIFY(m_cli->isValid());
}

void TestEdges::define(const QList<QStringList> &commands)
{
    const QString failed = m_cli->define(commands);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

void TestEdges::export_toFifoWritesThroughAndLeavesTheFifo()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}});
    const QString fifo = m_cli->filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QByteArray received;
    std::thread reader([&] {
        QFile in(fifo);
        if (in.open(QIODevice::ReadOnly))
            received = in.readAll();
    });
    const Output exported =
        m_cli->run({QStringLiteral("export"), QStringLiteral("--output"), fifo});
    reader.join();
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY(exported.err.isEmpty()); // no warning from a seek on the pipe either
    QVERIFY(QJsonDocument::fromJson(received).isObject());
    struct stat info = {};
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));

    const Output empty =
        m_cli->run({QStringLiteral("export"), QStringLiteral("--output"), QString()});
    QCOMPARE(empty.exitCode, 2);
    QVERIFY2(empty.err.contains(QStringLiteral("no file named")), qPrintable(empty.err));
    // Onto the store itself (its JSON replaced the database; helper-10), by a link too.
    const QString alias = m_cli->filePath(QStringLiteral("alias.db"));
    QVERIFY(QFile::link(m_cli->db(), alias));
    for (const QString &target : {m_cli->db(), alias}) {
        const Output self =
            m_cli->run({QStringLiteral("export"), QStringLiteral("--output"), target});
        QCOMPARE(self.exitCode, 2);
        QVERIFY2(self.err.contains(QLatin1String("is the store itself")), qPrintable(self.err));
    }
    QCOMPARE(m_cli->run({QStringLiteral("project"), QStringLiteral("list")}).exitCode, 0);
}

// `export > file` on a full disk, or any listing into /dev/full, exited 0 (helper-11).
void TestEdges::output_cutShortExitsOneSayingWhy()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}});
    for (const QStringList &command : {QStringList{QStringLiteral("export")},
                                       {QStringLiteral("project"), QStringLiteral("list")},
                                       {QStringLiteral("runs"), QStringLiteral("--json")}}) {
        QProcess process;
        process.setStandardOutputFile(QStringLiteral("/dev/full")); // opened, never renamed over
        m_cli->start(process, command);
        QVERIFY(process.waitForFinished(30000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() == 1, qPrintable(command.join(u' ') + u": " + err));
        QVERIFY2(err.contains(QStringLiteral("cannot write the output: No space left on device")),
                 qPrintable(err));
    }
}

void TestEdges::chainRemove_refusedWhileItsRunRunsAndServeStillStops()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("sleep 30")}});
    QProcess serve;
    m_cli->start(serve, {QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    const Output started = m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")});
    QCOMPARE(started.exitCode, 0);
    const QString runId = started.out.trimmed();
    QTRY_COMPARE_WITH_TIMEOUT(m_cli->runState(runId), QStringLiteral("running"), 20000);
    const Output removed =
        m_cli->run({QStringLiteral("chain"), QStringLiteral("rm"), QStringLiteral("p/c")});
    QCOMPARE(removed.exitCode, 2);
    QVERIFY2(removed.err.contains(runId) && removed.err.contains(QStringLiteral("p/c")),
             qPrintable(removed.err));
    const Output task = m_cli->run(
        {QStringLiteral("task"), QStringLiteral("rm"), QStringLiteral("p/c"), QStringLiteral("t")});
    QCOMPARE(task.exitCode, 2);
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY2(serve.waitForFinished(15000), "serve did not stop on SIGTERM within its grace");
    QCOMPARE(serve.exitCode(), 0);
    QCOMPARE(m_cli->runState(runId), QStringLiteral("cancelled"));
    QCOMPARE(
        m_cli->run({QStringLiteral("chain"), QStringLiteral("rm"), QStringLiteral("p/c")}).exitCode,
        0);
}

void TestEdges::task_stdinEndsAtOnce()
{
    // Before, `cat` read a pipe nobody closed until its 60 s timeout.
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("cat; read line || echo eof"),
             QStringLiteral("--timeout"), QStringLiteral("60")}});
    const Output waited =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")}, 40000);
    QVERIFY2(waited.exitCode == 0, qPrintable(waited.err));
    QVERIFY2(waited.out.contains(QStringLiteral("t | eof")), qPrintable(waited.out));
}

void TestEdges::timeout_beyondIntMillisecondsDoesNotFireEarly()
{
    // 4,294,968 s as int milliseconds wrapped to 0.7 s: the task was killed at once.
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("--timeout"), QStringLiteral("2147483")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("sleep 1.5; echo done"),
             QStringLiteral("--timeout"), QStringLiteral("4294968")}});
    const Output waited =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QVERIFY2(waited.exitCode == 0, qPrintable(waited.out + waited.err));
    QVERIFY(waited.out.contains(QStringLiteral("t | done")));
}

void TestEdges::numbers_outOfRangeNamedAsSuch()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}});
    const Output huge = m_cli->run(
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"), QStringLiteral("t"),
         QStringLiteral("--kind"), QStringLiteral("shell"), QStringLiteral("--command"),
         QStringLiteral("true"), QStringLiteral("--timeout"), QStringLiteral("99999999999")});
    QCOMPARE(huge.exitCode, 2);
    QVERIFY2(huge.err.contains(QStringLiteral("--timeout: 99999999999 is out of range")),
             qPrintable(huge.err));
    const Output relative = m_cli->run(
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"), QStringLiteral("t"),
         QStringLiteral("--kind"), QStringLiteral("shell"), QStringLiteral("--command"),
         QStringLiteral("true"), QStringLiteral("--workdir"), QStringLiteral("some/where")});
    QCOMPARE(relative.exitCode, 2);
    QVERIFY2(relative.err.contains(QStringLiteral("relative")), qPrintable(relative.err));
    // The name quoted in the error shows its control characters, a tab among them (it looked
    // like spaces, so the name seemed fine).
    const Output tabbed = m_cli->run(
        {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("a\tb\x1b[2J")});
    QCOMPARE(tabbed.exitCode, 2);
    QVERIFY2(tabbed.err.contains(QStringLiteral("'a\\tb\\e[2J' contains a control character")),
             qPrintable(tabbed.err));
    // serve's numbers as every other option's: whole, in range, the option named (1e3 and
    // 2.5 were taken as seconds; helper-10).
    for (const QString &lease :
         {QStringLiteral("1e3"), QStringLiteral("2.5"), QStringLiteral("0"), QStringLiteral("3601"),
          QStringLiteral(" 5"), QStringLiteral("5\n"), QStringLiteral("+5")}) {
        const Output served =
            m_cli->run({QStringLiteral("serve"), QStringLiteral("--lease"), lease});
        QCOMPARE(served.exitCode, 2);
        QVERIFY2(served.err.contains(QStringLiteral("--lease: ")), qPrintable(served.err));
    }
}

void TestEdges::passwords_refusedInOptionsAndInTheDbUrl()
{
    const Output options = m_cli->run({QStringLiteral("connection"), QStringLiteral("add"),
                                       QStringLiteral("warehouse"), QStringLiteral("--kind"),
                                       QStringLiteral("postgresql"), QStringLiteral("--options"),
                                       QStringLiteral("sslmode=require;password=hunter2")});
    QCOMPARE(options.exitCode, 2);
    QVERIFY2(options.err.contains(QStringLiteral("carries a password")), qPrintable(options.err));
    QVERIFY(!options.err.contains(QStringLiteral("hunter2")));
    QVERIFY(!m_cli->run({QStringLiteral("connection"), QStringLiteral("list")})
                 .out.contains(QStringLiteral("hunter2")));

    // Hidden after a blank in another setting (libpq reads two settings), or percent-encoded
    // in a remote's URL: refused all the same (found by a hostile test).
    for (const QString &hidden : {QStringLiteral("application_name=hgapp password=hunter2"),
                                  QStringLiteral("dbname='x PWD=hunter2'")}) {
        const Output sneaked =
            m_cli->run({QStringLiteral("connection"), QStringLiteral("add"),
                        QStringLiteral("sneaky"), QStringLiteral("--kind"),
                        QStringLiteral("postgresql"), QStringLiteral("--options"), hidden});
        QCOMPARE(sneaked.exitCode, 2);
        QVERIFY2(sneaked.err.contains(QStringLiteral("carries a password")),
                 qPrintable(sneaked.err));
    }
    const Output remote = m_cli->run(
        {QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("r"),
         QStringLiteral("--kind"), QStringLiteral("postgresql"), QStringLiteral("--url"),
         QStringLiteral("postgresql://me@127.0.0.1:1/hg?application_name=a%20password%3Dhunter2")});
    QVERIFY2(remote.exitCode != 0 && remote.err.contains(QStringLiteral("holds a password")),
             qPrintable(remote.err));
    QVERIFY(!m_cli->run({QStringLiteral("export")}).out.contains(QStringLiteral("hunter2")));

    for (const QString &db : {QStringLiteral("postgresql://me:hunter2@127.0.0.1:1/hg"),
                              QStringLiteral("postgresql://me@127.0.0.1:1/hg?password=hunter2"),
                              QStringLiteral("host=127.0.0.1 port=1 password=hunter2")}) {
        QProcess process;
        process.setProcessEnvironment(m_cli->environment());
        process.start(QStringLiteral(HOURGLASS_BINARY),
                      {QStringLiteral("--db"), db, QStringLiteral("runs")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 2);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("password")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("hunter2")), qPrintable(err));
        QVERIFY(!QFileInfo::exists(db)); // no SQLite file named after the connection string
    }
}

void TestEdges::storeFolder_writableByOthersIsTightened()
{
    const QString folder = m_cli->filePath(QStringLiteral("shared"));
    QVERIFY(QDir().mkpath(folder));
    QCOMPARE(::chmod(QFile::encodeName(folder).constData(), 0777), 0);
    m_cli->setDb(folder + QStringLiteral("/store.db"));
    const Output added =
        m_cli->run({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QVERIFY2(added.err.contains(QStringLiteral("could be written by other users")),
             qPrintable(added.err));
    struct stat info = {};
    QCOMPARE(::stat(QFile::encodeName(folder).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0022, 0U);
    QCOMPARE(::chmod(QFile::encodeName(m_cli->db()).constData(), 0666), 0);
    QVERIFY(m_cli->run({QStringLiteral("project"), QStringLiteral("list")}).exitCode == 0);
    QCOMPARE(::stat(QFile::encodeName(m_cli->db()).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0077, 0U);
    // Through a link, the store's own mode is judged (a link's is 0777: it was "changed to
    // 0700", the execute bit added, at every open; helper-11).
    const QString link = m_cli->filePath(QStringLiteral("link.db"));
    QVERIFY(QFile::link(m_cli->db(), link));
    m_cli->setDb(link);
    const Output linked = m_cli->run({QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY2(linked.exitCode == 0 && linked.err.isEmpty(), qPrintable(linked.err));
    QCOMPARE(::stat(QFile::encodeName(link).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0600U);
    if (::geteuid() != 0)
        return; // another user's folder (and a device node) needs root to make
    // A device named as the store is refused and left alone: root made /dev/null 0600.
    const QString device = m_cli->filePath(QStringLiteral("null"));
    QCOMPARE(::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 3)), 0);
    QCOMPARE(::chmod(QFile::encodeName(device).constData(), 0666), 0);
    m_cli->setDb(device);
    QVERIFY(m_cli->run({QStringLiteral("project"), QStringLiteral("list")}).exitCode != 0);
    QCOMPARE(::stat(QFile::encodeName(device).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0666U);
    m_cli->setDb(folder + QStringLiteral("/store.db"));
    QCOMPARE(::chown(QFile::encodeName(folder).constData(), 65534, 65534), 0);
    QCOMPARE(::chmod(QFile::encodeName(folder).constData(), 0777), 0);
    const Output foreign = m_cli->run({QStringLiteral("project"), QStringLiteral("list")});
    QCOMPARE(foreign.exitCode, 2);
    QVERIFY2(foreign.err.contains(QStringLiteral("can be written by other users")),
             qPrintable(foreign.err));
}

void TestEdges::signal_namedWhenATaskIsKilled()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("kill -KILL $$")}});
    const Output waited =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QCOMPARE(waited.exitCode, 1);
    QVERIFY2(QString(waited.out + waited.err).contains(QStringLiteral("signal 9 (SIGKILL)")),
             qPrintable(waited.out + waited.err));
}

void TestEdges::retention_showAndApplyTakeAChain()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}});
    const Output shown =
        m_cli->run({QStringLiteral("retention"), QStringLiteral("show"), QStringLiteral("p/c")});
    QVERIFY2(shown.exitCode == 0 && shown.out.contains(QStringLiteral("p/c")),
             qPrintable(shown.err));
    QCOMPARE(m_cli
                 ->run({QStringLiteral("retention"), QStringLiteral("apply"), QStringLiteral("p/c"),
                        QStringLiteral("--dry-run")})
                 .exitCode,
             0);
    QCOMPARE(
        m_cli->run({QStringLiteral("retention"), QStringLiteral("show"), QStringLiteral("p/none")})
            .exitCode,
        2);
}

void TestEdges::import_aServiceAloneImportsItsCommands()
{
    const QString service = m_cli->filePath(QStringLiteral("report.service"));
    QFile file(service);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[Unit]\nDescription=Report\n[Service]\nType=oneshot\nExecStart=/bin/echo hi\n");
    file.close();
    const Output imported = m_cli->run(
        {QStringLiteral("import"), service, QStringLiteral("--from"), QStringLiteral("systemd")});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.out + imported.err));
    QVERIFY2(QString(imported.out + imported.err).contains(QStringLiteral("0 item(s) left out")),
             qPrintable(imported.out + imported.err));
    const Output waited = m_cli->run(
        {QStringLiteral("run"), QStringLiteral("systemd/report"), QStringLiteral("--wait")});
    QVERIFY2(waited.exitCode == 0 && waited.out.contains(QStringLiteral("| hi")),
             qPrintable(waited.out + waited.err));
}

QTEST_GUILESS_MAIN(TestEdges)
#include "tst_edges.moc"
