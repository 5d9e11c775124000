#pragma once

#include <QAccessibleInterface>
#include <QCoreApplication>

namespace hg {

class DagAccessible;
class DagScene;
class DependencyEdgeItem;
class TaskNodeItem;

// One task (upstreamId 0) or one dependency of the canvas, for assistive technology. It holds
// ids and finds its item afresh on every question: the canvas redraws its items often.
class DagItemAccessible final : public QAccessibleInterface
{
    Q_DECLARE_TR_FUNCTIONS(hg::DagItemAccessible)

public:
    DagItemAccessible(DagAccessible *canvas, qint64 taskId, qint64 upstreamId);

    bool isValid() const override;
    QObject *object() const override { return nullptr; }
    QWindow *window() const override;
    QAccessibleInterface *parent() const override;
    QAccessibleInterface *child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface *) const override { return -1; }
    QAccessibleInterface *childAt(int, int) const override { return nullptr; }
    QString text(QAccessible::Text t) const override;
    void setText(QAccessible::Text, const QString &) override {}
    QRect rect() const override;
    QAccessible::Role role() const override;
    QAccessible::State state() const override;

    qint64 taskId() const { return m_taskId; }
    qint64 upstreamId() const { return m_upstreamId; }

private:
    DagScene *scene() const;
    TaskNodeItem *node() const;
    DependencyEdgeItem *edge() const;

    DagAccessible *m_canvas;
    qint64 m_taskId;
    qint64 m_upstreamId;
};

} // namespace hg
