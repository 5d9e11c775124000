#include "taskexecutor.h"

namespace hg {

void TaskExecutor::deliverOutcome(const TaskOutcome &outcome)
{
    if (m_outcomeDelivered)
        return;
    m_outcomeDelivered = true;
    QMetaObject::invokeMethod(
        this, [this, outcome] { Q_EMIT finished(outcome); }, Qt::QueuedConnection);
}

void TaskExecutor::emitText(LogStream stream, const QString &text)
{
    QStringView rest(text);
    if (rest.endsWith(QLatin1Char('\n')))
        rest.chop(1);
    if (rest.isEmpty())
        return;
    for (const QStringView line : rest.split(QLatin1Char('\n')))
        Q_EMIT outputLine(stream, line.endsWith(QLatin1Char('\r')) ? line.chopped(1).toString()
                                                                   : line.toString());
}

} // namespace hg
