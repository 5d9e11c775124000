#pragma once

#include <QGraphicsView>

namespace hg {

class DagScene;

// The canvas widget of a chain's DAG. A class of its own so that assistive technology gets
// DagAccessible for it: the tasks and dependencies as accessible children, not one opaque
// picture.
class DagView final : public QGraphicsView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DagView)

public:
    DagView(DagScene *scene, QWidget *parent = nullptr);

    DagScene *dagScene() const { return m_scene; }

private:
    void announceSelection();

    DagScene *m_scene;
};

} // namespace hg
