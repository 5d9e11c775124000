#pragma once

#include <QObject>

class QPlainTextEdit;

namespace hg {

// A multi-line field (a script, a request body) where Tab moves on, as everywhere else in a
// form, instead of inserting a tab and marking the form changed; Ctrl+Tab inserts one.
class TabLeavesField final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TabLeavesField)

public:
    // Made a child of the field, so it goes with it.
    static void install(QPlainTextEdit *field);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit TabLeavesField(QPlainTextEdit *field);
};

} // namespace hg
