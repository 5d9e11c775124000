#pragma once

#include <QHash>
#include <QSet>
#include <QString>

namespace hg {

// Names imported chains after what they run ("backup.sh", "cron.daily", "sessionclean"),
// unique within the project: a taken name gets "-2", "-3"...
class ChainNamer final
{
public:
    explicit ChainNamer(QSet<QString> taken = {})
        : m_taken(std::move(taken))
    {}

    // From a shell command line: the program it is about, past `cd DIR &&`, `test -x FILE &&`,
    // variable assignments and wrappers such as nice or timeout.
    QString fromCommand(const QString &command);
    // From any text (a program path, a unit name): its file name, made safe.
    QString fromName(const QString &name);

    static QString programOf(const QString &command);

private:
    QString unique(const QString &base);

    QSet<QString> m_taken;
    QHash<QString, int> m_nextNumber; // base -> the number to try first
};

} // namespace hg
