#pragma once

#include <QAccessibleWidget>
#include <QHash>

namespace hg {

class DagView;

// The canvas for assistive technology: a graphic whose children are the chain's tasks (name,
// kind and last state; selected or not) and then its dependencies ("extract → load, on
// success"). Child interfaces are looked up by task and edge ids, never by item pointer, so
// a canvas redraw leaves none dangling.
class DagAccessible final : public QAccessibleWidget
{
public:
    explicit DagAccessible(DagView *view);
    ~DagAccessible() override;

    int childCount() const override;
    QAccessibleInterface *child(int index) const override;
    int indexOfChild(const QAccessibleInterface *child) const override;
    QAccessibleInterface *childAt(int x, int y) const override;

    DagView *view() const;

private:
    // Key: the child's index-independent identity (task id, or task and upstream ids).
    mutable QHash<QPair<qint64, qint64>, QAccessible::Id> m_children;
};

} // namespace hg
