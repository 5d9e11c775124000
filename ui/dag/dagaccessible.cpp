#include "dagaccessible.h"

#include "dag/dagitemaccessible.h"
#include "dag/dagscene.h"
#include "dag/dagview.h"
#include "dag/dependencyedgeitem.h"
#include "dag/tasknodeitem.h"

namespace hg {

DagAccessible::DagAccessible(DagView *view)
    : QAccessibleWidget(view, QAccessible::Graphic)
{}

DagAccessible::~DagAccessible()
{
    for (const QAccessible::Id id : std::as_const(m_children))
        QAccessible::deleteAccessibleInterface(id);
}

DagView *DagAccessible::view() const
{
    return static_cast<DagView *>(widget());
}

int DagAccessible::childCount() const
{
    const DagScene *scene = view()->dagScene();
    return int(scene->taskIds().size() + scene->edges().size());
}

QAccessibleInterface *DagAccessible::child(int index) const
{
    const DagScene *scene = view()->dagScene();
    const QList<qint64> tasks = scene->taskIds();
    QPair<qint64, qint64> key;
    if (index >= 0 && index < tasks.size()) {
        key = {tasks.at(index), 0};
    } else {
        const int edge = index - int(tasks.size());
        if (edge < 0 || edge >= scene->edges().size())
            return nullptr;
        const Dependency &dependency = scene->edges().at(edge)->dependency();
        key = {dependency.taskId, dependency.upstreamId};
    }
    if (const auto known = m_children.constFind(key); known != m_children.constEnd())
        return QAccessible::accessibleInterface(known.value());
    auto *item = new DagItemAccessible(const_cast<DagAccessible *>(this), key.first, key.second);
    m_children.insert(key, QAccessible::registerAccessibleInterface(item));
    return item;
}

int DagAccessible::indexOfChild(const QAccessibleInterface *child) const
{
    const auto *item = dynamic_cast<const DagItemAccessible *>(child);
    if (!item)
        return -1;
    const DagScene *scene = view()->dagScene();
    const QList<qint64> tasks = scene->taskIds();
    if (item->upstreamId() == 0)
        return int(tasks.indexOf(item->taskId()));
    for (int edge = 0; edge < scene->edges().size(); ++edge) {
        const Dependency &dependency = scene->edges().at(edge)->dependency();
        if (dependency.taskId == item->taskId() && dependency.upstreamId == item->upstreamId())
            return int(tasks.size()) + edge;
    }
    return -1;
}

QAccessibleInterface *DagAccessible::childAt(int x, int y) const
{
    for (int index = 0; index < childCount(); ++index) {
        QAccessibleInterface *candidate = child(index);
        if (candidate && candidate->rect().contains(x, y))
            return candidate;
    }
    return nullptr;
}

} // namespace hg
