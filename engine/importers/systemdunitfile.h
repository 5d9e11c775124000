#pragma once

#include <QList>
#include <QString>

namespace hg {

// A systemd unit file as systemd reads it: [Section] headers, Key=Value lines, '#' and ';'
// comments, a trailing backslash continuing a line. Keys may repeat (ExecStart=,
// Environment=); an empty value resets the list before it, as systemd does.
class SystemdUnitFile final
{
public:
    struct Entry
    {
        QString section;
        QString key;
        QString value;
        int line = 0;
        // "Key=value", as a report quotes it.
        QString text() const { return key + QLatin1Char('=') + value; }
        // "unit.timer:7": the file's name and the entry's line, where a report points.
        QString where(const QString &unitPath) const;
    };

    static SystemdUnitFile parse(const QByteArray &text);

    QList<Entry> values(const QString &section, const QString &key) const;
    // The last value of a key, or FALLBACK.
    QString value(const QString &section, const QString &key, const QString &fallback = {}) const;
    const QList<Entry> &entries() const { return m_entries; }

    // One ExecStart= command line split as systemd splits it: quotes, backslash escapes.
    // False when a quote is left open.
    static bool splitCommandLine(const QString &line, QStringList &words);

private:
    QList<Entry> m_entries;
};

} // namespace hg
