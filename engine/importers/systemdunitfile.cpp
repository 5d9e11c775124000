#include "systemdunitfile.h"

#include <QFileInfo>
#include <QStringList>

namespace hg {

QString SystemdUnitFile::Entry::where(const QString &unitPath) const
{
    return QStringLiteral("%1:%2").arg(QFileInfo(unitPath).fileName()).arg(line);
}

SystemdUnitFile SystemdUnitFile::parse(const QByteArray &text)
{
    SystemdUnitFile unit;
    QString section;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int number = int(i) + 1;
        QString line = QString::fromUtf8(lines.at(i)).trimmed();
        while (line.endsWith(QLatin1Char('\\')) && i + 1 < lines.size()) {
            line.chop(1);
            line += QLatin1Char(' ') + QString::fromUtf8(lines.at(++i)).trimmed();
        }
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))
            || line.startsWith(QLatin1Char(';')))
            continue;
        if (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) {
            section = line.mid(1, line.size() - 2);
            continue;
        }
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals <= 0)
            continue;
        const QString key = line.left(equals).trimmed();
        const QString value = line.mid(equals + 1).trimmed();
        if (value.isEmpty()) { // "ExecStart=" empties the list so far
            unit.m_entries.removeIf(
                [&](const Entry &entry) { return entry.section == section && entry.key == key; });
            continue;
        }
        unit.m_entries << Entry{section, key, value, number};
    }
    return unit;
}

QList<SystemdUnitFile::Entry> SystemdUnitFile::values(const QString &section,
                                                      const QString &key) const
{
    QList<Entry> found;
    for (const Entry &entry : m_entries) {
        if (entry.section == section && entry.key == key)
            found << entry;
    }
    return found;
}

QString SystemdUnitFile::value(const QString &section, const QString &key,
                               const QString &fallback) const
{
    const QList<Entry> found = values(section, key);
    return found.isEmpty() ? fallback : found.constLast().value;
}

bool SystemdUnitFile::splitCommandLine(const QString &line, QStringList &words)
{
    words.clear();
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (c == QLatin1Char('\\') && i + 1 < line.size()) {
            const QChar next = line.at(++i);
            switch (next.unicode()) {
            case 'n':
                word += QLatin1Char('\n');
                break;
            case 't':
                word += QLatin1Char('\t');
                break;
            default:
                word += next;
                break;
            }
            inWord = true;
        } else if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull())
        return false;
    if (inWord)
        words << word;
    return true;
}

} // namespace hg
