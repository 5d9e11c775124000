// The live log view under a flood (scripts/bench): 20,000 lines a second arrive in the
// engine's batches while a QListView follows them. The lines a second the model took in are set
// beside the rate offered (their limit), the longest stall of the GUI thread beside a 16 ms
// frame (a target). Offscreen when there is no display.
#include "benchsupport.h"
#include "logmodel.h"
#include "store/store.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QListView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace hg;

int main(int argc, char *argv[])
{
    bench::useOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const int linesPerSecond = app.arguments().value(1, QStringLiteral("20000")).toInt();
    constexpr int seconds = 5;
    constexpr int batchEveryMs = 100; // the engine's log batcher: 100 ms or 500 lines
    QTemporaryDir dir;
    auto store =
        std::move(Store::open(StoreLocation::parse(dir.filePath(QStringLiteral("b.db"))).value(),
                              QStringLiteral("gui"))
                      .value());
    LogModel model(*store);
    (void)model.follow(1);
    QListView view;
    view.setUniformItemSizes(true); // what the real log view sets: no per-row size queries
    view.setModel(&model);
    view.resize(1000, 700);
    view.show();
    qint64 shown = 0;
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, &view,
                     [&view, &shown](const QModelIndex &, int first, int last) {
                         shown += last - first + 1;
                         view.scrollToBottom();
                     });

    qint64 sent = 0;
    qint64 nextId = 1;
    QElapsedTimer clock;
    clock.start();
    QTimer producer;
    producer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&producer, &QTimer::timeout, &producer, [&] {
        const int batch = linesPerSecond * batchEveryMs / 1000;
        QList<LogLine> lines;
        lines.reserve(batch);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (int i = 0; i < batch; ++i, ++nextId)
            lines << LogLine{nextId,
                             1,
                             0,
                             i % 7 ? LogStream::Stdout : LogStream::Stderr,
                             now,
                             QStringLiteral("%1 some output of a busy task, line %2")
                                 .arg(now.toString(Qt::ISODateWithMs))
                                 .arg(nextId)};
        model.appendLines(lines);
        sent += batch;
        if (clock.elapsed() >= seconds * 1000)
            QCoreApplication::quit();
    });
    // A 5 ms heartbeat measures how long the GUI thread was away.
    qint64 last = clock.elapsed();
    qint64 worstStall = 0;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    QObject::connect(&heartbeat, &QTimer::timeout, &heartbeat, [&] {
        const qint64 now = clock.elapsed();
        worstStall = std::max(worstStall, now - last);
        last = now;
    });
    producer.start(batchEveryMs);
    heartbeat.start(5);
    QCoreApplication::exec();
    out << QStringLiteral("live log view: %1 lines/s offered in batches every %2 ms for %3 s\n")
               .arg(linesPerSecond)
               .arg(batchEveryMs)
               .arg(seconds);
    out << QStringLiteral("  %1 lines sent, %2 taken in by the model, %3 kept\n")
               .arg(sent)
               .arg(shown)
               .arg(model.rowCount());
    bench::Figure figure;
    figure.bench = QStringLiteral("bench_logview");
    figure.what = QStringLiteral("lines shown");
    figure.value = double(shown) * 1000.0 / double(clock.elapsed());
    figure.unit = QStringLiteral("lines/s");
    figure.higherIsBetter = true;
    figure.besideWhat =
        QStringLiteral("the rate offered, in batches every %1 ms").arg(batchEveryMs);
    figure.beside = linesPerSecond;
    bench::report(out, figure);
    figure.what = QStringLiteral("longest GUI-thread stall (5 ms heartbeat)");
    figure.value = double(worstStall);
    figure.unit = QStringLiteral("ms");
    figure.higherIsBetter = false;
    figure.kind = bench::Beside::Target;
    figure.besideWhat = QStringLiteral("a frame at 60 Hz");
    figure.beside = 16;
    bench::report(out, figure);
    return 0;
}
