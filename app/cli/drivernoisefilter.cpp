#include "drivernoisefilter.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QString>
#include <QtGlobal>

#include <utility>

namespace hg::drivernoisefilter {
namespace {

QtMessageHandler previous = nullptr;
QMutex mutex;
QElapsedTimer sinceSaid;
int suppressed = 0;

bool isDriverNoise(const QString &message)
{
    static const char *const patterns[] = {
        "Unable to free statement", // QPSQL, each prepared statement of a lost connection
        "QSqlQuery::prepare: database not open",
        "QSqlQuery::exec: database not open",
        "QSocketNotifier: Invalid socket", // the lost connection's notification socket
        "QPSQLDriver::beginTransaction: Database not open",
    };
    const QString text = message.trimmed();
    if (text.isEmpty())
        return true; // the driver's messages end in a newline of their own
    for (const char *pattern : patterns) {
        if (text.startsWith(QLatin1String(pattern)))
            return true;
    }
    return false;
}

void filter(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && isDriverNoise(message)) {
        const QMutexLocker lock(&mutex);
        ++suppressed;
        if (sinceSaid.isValid() && sinceSaid.elapsed() < 60000)
            return;
        sinceSaid.start();
        const QString summary =
            QStringLiteral("hourglass: %1 database driver warning(s) about a lost connection "
                           "(shown once a minute as a count)")
                .arg(std::exchange(suppressed, 0));
        previous(QtWarningMsg, context, summary);
        return;
    }
    previous(type, context, message);
}

} // namespace

void install()
{
    previous = qInstallMessageHandler(filter);
}

} // namespace hg::drivernoisefilter
