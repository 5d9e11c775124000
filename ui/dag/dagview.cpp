#include "dagview.h"

#include "dag/dagaccessible.h"
#include "dag/dagscene.h"

#include <QAccessible>

namespace hg {
namespace {

QAccessibleInterface *accessibleFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("hg::DagView") && object->isWidgetType())
        return new DagAccessible(static_cast<DagView *>(object));
    return nullptr;
}

} // namespace

DagView::DagView(DagScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , m_scene(scene)
{
    static const bool installed = [] {
        QAccessible::installFactory(accessibleFactory);
        return true;
    }();
    Q_UNUSED(installed)
    connect(scene, &DagScene::currentTaskChanged, this, &DagView::announceSelection);
}

void DagView::announceSelection()
{
    // A screen reader follows the selected task as the arrows move it.
    if (!QAccessible::isActive())
        return;
    const QList<qint64> ids = m_scene->selectedTaskIds();
    if (ids.size() != 1)
        return;
    const int child = int(m_scene->taskIds().indexOf(ids.constFirst()));
    QAccessibleEvent focus(this, QAccessible::Focus);
    focus.setChild(child);
    QAccessible::updateAccessibility(&focus);
}

} // namespace hg
