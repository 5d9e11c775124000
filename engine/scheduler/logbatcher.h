#pragma once

#include "domain/logline.h"

#include <QList>
#include <QObject>
#include <QTimer>

namespace hg {

class Store;

// Collects log lines and writes them in one transaction every 100 ms (or every 500 lines),
// then announces the written batch: the store is not hit once per line and the GUI gets a
// few events per second instead of thousands.
class LogBatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogBatcher)

public:
    explicit LogBatcher(Store &store, QObject *parent = nullptr);
    ~LogBatcher() override;

    void add(const LogLine &line);
    void flush();

Q_SIGNALS:
    void linesWritten(const QList<hg::LogLine> &lines);

private:
    Store &m_store;
    QList<LogLine> m_pending;
    QTimer m_timer;
};

} // namespace hg
