#pragma once

#include <QWidget>

class QListWidget;

namespace hg {

// An argv list: one argument per row, edited in place, added, removed and reordered. No
// shell quoting anywhere: what the row says is exactly what the program receives.
class ArgumentListEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ArgumentListEditor)

public:
    explicit ArgumentListEditor(QWidget *parent = nullptr);

    void setArguments(const QStringList &arguments);
    QStringList arguments() const;
    QListWidget *list() const { return m_list; }
    void addArgument(const QString &text);

Q_SIGNALS:
    void changed();

private:
    void moveCurrent(int by);

    QListWidget *m_list;
};

} // namespace hg
