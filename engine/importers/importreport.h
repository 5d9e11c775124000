#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace hg {

// What an importer made of a foreign file: each chain it created and each line or element
// it could not bring along, with where it was (a line number, an XML path) and why. Left-out
// items make `hourglass import` exit 1; notes describe a conversion that changed form but
// kept its meaning.
class ImportReport final
{
public:
    enum class Kind { Converted, LeftOut, Note };
    struct Item
    {
        Kind kind = Kind::Converted;
        QString where; // "line 12", "Triggers/CalendarTrigger[2]"
        QString text;  // the source, as written (trimmed)
        QString message;
        QString chain;    // Converted: the chain's name
        QString schedule; // Converted: its schedule, as the chain shows it
    };

    explicit ImportReport(QString source = {})
        : m_source(std::move(source))
    {}

    void converted(const QString &where, const QString &text, const QString &chain,
                   const QString &schedule);
    void leftOut(const QString &where, const QString &text, const QString &why);
    // The input as a whole cannot be read (not XML, not a task, a timer without its service):
    // left out like an item, and `hourglass import` exits 2 rather than 1.
    void unreadable(const QString &where, const QString &why);
    void note(const QString &where, const QString &text, const QString &message);

    const QString &source() const { return m_source; }
    const QList<Item> &items() const { return m_items; }
    int count(Kind kind) const;
    bool leftSomethingOut() const { return count(Kind::LeftOut) > 0; }
    bool inputUnreadable() const { return m_unreadable; }
    // One line per item, then a summary; PROJECT names where the chains went.
    QString toText(const QString &project, bool dryRun) const;
    QJsonObject toJson(const QString &project, bool dryRun) const;

private:
    QString m_source;
    QList<Item> m_items;
    bool m_unreadable = false;
};

} // namespace hg
