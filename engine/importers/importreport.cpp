#include "importreport.h"

#include "base/terminaltext.h"

#include <QJsonArray>

namespace hg {

void ImportReport::converted(const QString &where, const QString &text, const QString &chain,
                             const QString &schedule)
{
    m_items << Item{Kind::Converted, where, text, {}, chain, schedule};
}

void ImportReport::leftOut(const QString &where, const QString &text, const QString &why)
{
    m_items << Item{Kind::LeftOut, where, text, why, {}, {}};
}

void ImportReport::unreadable(const QString &where, const QString &why)
{
    m_unreadable = true;
    leftOut(where, {}, why);
}

void ImportReport::note(const QString &where, const QString &text, const QString &message)
{
    m_items << Item{Kind::Note, where, text, message, {}, {}};
}

int ImportReport::count(Kind kind) const
{
    return int(std::count_if(m_items.cbegin(), m_items.cend(),
                             [kind](const Item &item) { return item.kind == kind; }));
}

QString ImportReport::toText(const QString &project, bool dryRun) const
{
    // Everything here may come from the file read: control characters are shown, never
    // obeyed by the terminal (an ESC in a crontab line must not clear the screen).
    const auto shown = [](const QString &text) {
        return terminaltext::escaped(text);
    };
    const QString source = shown(m_source);
    QString text;
    for (const Item &item : m_items) {
        switch (item.kind) {
        case Kind::Converted:
            text += QStringLiteral("%1: %2 -> chain %3/%4 (%5)\n")
                        .arg(source, shown(item.where), shown(project), shown(item.chain),
                             shown(item.schedule));
            break;
        case Kind::LeftOut:
            text += QStringLiteral("%1: %2 left out: %3\n")
                        .arg(source, shown(item.where), shown(item.message));
            if (!item.text.isEmpty())
                text += QStringLiteral("    %1\n").arg(shown(item.text));
            break;
        case Kind::Note:
            text += QStringLiteral("%1: %2 note: %3\n")
                        .arg(source, shown(item.where), shown(item.message));
            break;
        }
    }
    const int chains = count(Kind::Converted);
    const int left = count(Kind::LeftOut);
    text += QStringLiteral("%1 %2 chain(s) into project %3; %4 item(s) left out\n")
                .arg(dryRun ? QStringLiteral("would import") : QStringLiteral("imported"))
                .arg(chains)
                .arg(shown(project))
                .arg(left);
    return text;
}

QJsonObject ImportReport::toJson(const QString &project, bool dryRun) const
{
    QJsonArray chains;
    QJsonArray leftOut;
    QJsonArray notes;
    for (const Item &item : m_items) {
        QJsonObject o{{QStringLiteral("where"), item.where}, {QStringLiteral("text"), item.text}};
        switch (item.kind) {
        case Kind::Converted:
            o.insert(QStringLiteral("chain"), item.chain);
            o.insert(QStringLiteral("schedule"), item.schedule);
            chains << o;
            break;
        case Kind::LeftOut:
            o.insert(QStringLiteral("reason"), item.message);
            leftOut << o;
            break;
        case Kind::Note:
            o.insert(QStringLiteral("message"), item.message);
            notes << o;
            break;
        }
    }
    return {{QStringLiteral("source"), m_source}, {QStringLiteral("project"), project},
            {QStringLiteral("dryRun"), dryRun},   {QStringLiteral("chains"), chains},
            {QStringLiteral("leftOut"), leftOut}, {QStringLiteral("notes"), notes}};
}

} // namespace hg
