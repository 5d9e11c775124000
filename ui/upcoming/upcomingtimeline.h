#pragma once

#include "domain/occurrence.h"
#include "upcomingmodel.h"

#include <QHash>
#include <QList>
#include <QWidget>

namespace hg {

class OccurrencesModel;

// Yesterday and today so far beside the coming week: a row per chain, a column per day. The
// past shows what became of each fire time, coloured by outcome (a run by its state; skipped,
// missed and excluded hatched), from an OccurrencesModel; the future shows a tick at each fire
// time (frequent schedules become a solid band), from an UpcomingModel. The table below lists
// the coming fires one by one.
class UpcomingTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingTimeline)

public:
    // A row per chain: what became of its fire times since yesterday, its coming fires.
    struct Fire
    {
        qint64 atMs = 0;
        bool continues = false; // fires on beyond the list: a band to the week's end
    };
    struct Row
    {
        qint64 chainId = 0;
        QString label;
        QList<Occurrence> past;
        QList<Fire> future;
    };
    struct Rows
    {
        QList<Row> rows;
        QString pastSummary;
    };

    // Following the two models: laid out anew when either resets.
    UpcomingTimeline(UpcomingModel *fires, OccurrencesModel *past, QWidget *parent = nullptr);
    // Shown as given (showRows): laid out off the GUI thread by whoever reads.
    explicit UpcomingTimeline(QWidget *parent = nullptr);

    // Any thread: the chains in order of their first entry, past first (a million fire
    // times take a GUI thread a fifth of a second).
    static Rows layOut(const QList<Occurrence> &past, const QHash<qint64, QString> &paths,
                       const QList<UpcomingModel::Fire> &fires);
    void showRows(Rows rows);

    QSize sizeHint() const override;
    // The chains: those with a past occurrence first, then in the order of their next fire.
    QStringList rowLabels() const;
    static constexpr int pastDays = 1; // before today
    static constexpr int futureDays = 7;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    // Painting reads only the rows exposed: thousands of chains scroll without reading every
    // fire at each paint.
    UpcomingModel *m_fires = nullptr;
    OccurrencesModel *m_past = nullptr;
    QList<Row> m_rows;
    // showRows() was called: before, the timeline says it is reading, not that nothing is due
    bool m_shown = false;
};

} // namespace hg
