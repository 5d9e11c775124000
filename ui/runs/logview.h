#pragma once

#include "domain/logline.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;

namespace hg {

class LogModel;
class Store;

// The live log of the selected run: follows new lines (unless paused), tells stdout, stderr
// and engine notes apart by colour, searches, copies and saves.
class LogView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogView)

public:
    explicit LogView(Store &store, QWidget *parent = nullptr);

    LogModel *model() const { return m_model; }
    // The whole run, or only one task run (attempt) of it.
    void follow(qint64 runId, qint64 taskRunId = 0);
    bool isFollowing() const;
    // Gives the keyboard to the lines (Go to → Log).
    void focusLines();

public Q_SLOTS:
    void appendLines(const QList<hg::LogLine> &lines);

private:
    void findNext(bool forward);
    void saveToFile();

    LogModel *m_model = nullptr;
    QListView *m_list = nullptr;
    QLineEdit *m_search = nullptr;
    QCheckBox *m_follow = nullptr;
    QPushButton *m_save = nullptr; // enabled while a run is shown
    QLabel *m_cut = nullptr;       // says when the first lines are not shown
};

} // namespace hg
