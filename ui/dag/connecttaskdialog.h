#pragma once

#include "domain/dependency.h"
#include "domain/enums.h"
#include "domain/task.h"

#include <QDialog>

class QComboBox;

namespace hg {

// Connects the selected task to another without a mouse: which task runs after it, and on
// which condition (success, completion, failure).
class ConnectTaskDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectTaskDialog)

public:
    // edges: the chain's dependencies. A task that already runs after `upstream`, or that
    // `upstream` waits for (directly or not: the new edge would close a loop), is listed but
    // cannot be chosen, and never chosen first (it was the default; issue 34).
    ConnectTaskDialog(const Task &upstream, const QList<Task> &candidates,
                      const QList<Dependency> &edges, QWidget *parent = nullptr);

    qint64 downstreamId() const;
    DependencyCondition condition() const;

private:
    QComboBox *m_downstream;
    QComboBox *m_condition;
};

} // namespace hg
