#pragma once

#include "domain/enums.h"
#include "overviewsnapshot.h"

#include <QGraphicsView>
#include <QHash>
#include <QList>

#include <optional>

class QGraphicsRectItem;

namespace hg {

// The chains that start other chains (chain triggers), drawn as a flow: a box per chain,
// coloured by its last run, an arrow from each upstream to the chain it starts, labelled with
// the state that starts it (dashed while the trigger is paused). Laid out in layers, as the
// chain's task canvas is. Arrow keys walk the boxes, Enter or a double click opens a chain;
// the accessible description reads the edges out.
class ChainFlowView final : public QGraphicsView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainFlowView)

public:
    // Beyond this many chains the flow shows the first ones and says so.
    static constexpr int mostChains = 300;

    explicit ChainFlowView(QWidget *parent = nullptr);

    // lastState: each chain's latest run, where known.
    void show(const QList<OverviewSnapshot::Link> &links, const QHash<qint64, RunState> &lastState);
    QList<qint64> chainIds() const { return m_order; }
    qint64 currentChain() const { return m_current; }
    void setCurrentChain(qint64 chainId);
    // "ops/load starts ops/report when it succeeded", one line an edge.
    QStringList edgeTexts() const { return m_edgeTexts; }
    // The chains not drawn (beyond mostChains).
    int leftOut() const { return m_leftOut; }

Q_SIGNALS:
    void chainActivated(qint64 chainId);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    qint64 chainAt(const QPoint &viewPoint) const;
    // laneY: below the boxes, for an edge that would cross others.
    void drawEdge(QGraphicsScene *scene, const QRectF &from, const QRectF &to,
                  const OverviewSnapshot::Link &link, std::optional<double> laneY);

    QHash<qint64, QGraphicsRectItem *> m_boxes;
    QList<qint64> m_order; // by path: the order arrow keys walk
    QStringList m_edgeTexts;
    qint64 m_current = 0;
    int m_leftOut = 0;
};

} // namespace hg
