#pragma once

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
    ConnectTaskDialog(const Task &upstream, const QList<Task> &candidates,
                      QWidget *parent = nullptr);

    qint64 downstreamId() const;
    DependencyCondition condition() const;

private:
    QComboBox *m_downstream;
    QComboBox *m_condition;
};

} // namespace hg
