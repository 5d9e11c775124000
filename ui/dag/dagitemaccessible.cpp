#include "dagitemaccessible.h"

#include "dag/dagaccessible.h"
#include "dag/dagscene.h"
#include "dag/dagview.h"
#include "dag/dependencyedgeitem.h"
#include "dag/tasknodeitem.h"
#include "statepresentation.h"

#include <QWidget>

namespace hg {

DagItemAccessible::DagItemAccessible(DagAccessible *canvas, qint64 taskId, qint64 upstreamId)
    : m_canvas(canvas)
    , m_taskId(taskId)
    , m_upstreamId(upstreamId)
{}

DagScene *DagItemAccessible::scene() const
{
    return m_canvas->view()->dagScene();
}

TaskNodeItem *DagItemAccessible::node() const
{
    return m_upstreamId == 0 ? scene()->node(m_taskId) : nullptr;
}

DependencyEdgeItem *DagItemAccessible::edge() const
{
    return m_upstreamId == 0 ? nullptr : scene()->edge(m_taskId, m_upstreamId);
}

bool DagItemAccessible::isValid() const
{
    return node() || edge();
}

QWindow *DagItemAccessible::window() const
{
    return m_canvas->window();
}

QAccessibleInterface *DagItemAccessible::parent() const
{
    return m_canvas;
}

QString DagItemAccessible::text(QAccessible::Text t) const
{
    if (const TaskNodeItem *task = node()) {
        if (t == QAccessible::Name)
            return task->task().name;
        if (t == QAccessible::Description)
            return tr("%1 task, %2")
                .arg(enumName(task->task().kind), StatePresentation::label(task->lastState()));
        return {};
    }
    if (const DependencyEdgeItem *line = edge()) {
        const Dependency &dependency = line->dependency();
        if (t == QAccessible::Name)
            return tr("%1 → %2").arg(dependency.upstreamName, dependency.taskName);
        if (t == QAccessible::Description)
            return tr("%1 runs after %2, on %3")
                .arg(dependency.taskName, dependency.upstreamName, enumName(dependency.condition));
    }
    return {};
}

QRect DagItemAccessible::rect() const
{
    const DagView *view = m_canvas->view();
    const QGraphicsItem *item = node();
    if (!item)
        item = edge();
    if (!item)
        return {};
    const QRect inViewport = view->mapFromScene(item->sceneBoundingRect()).boundingRect();
    return QRect(view->viewport()->mapToGlobal(inViewport.topLeft()), inViewport.size());
}

QAccessible::Role DagItemAccessible::role() const
{
    return m_upstreamId == 0 ? QAccessible::ListItem : QAccessible::Link;
}

QAccessible::State DagItemAccessible::state() const
{
    QAccessible::State state;
    const QGraphicsItem *item = node();
    if (!item)
        item = edge();
    if (!item) {
        state.invalid = true;
        return state;
    }
    state.selectable = true;
    state.focusable = m_upstreamId == 0;
    state.selected = item->isSelected();
    state.focused = state.selected && m_canvas->view()->hasFocus();
    return state;
}

} // namespace hg
