#pragma once

#include <QByteArrayList>
#include <QString>
#include <QStringList>

namespace hg {

// A file trigger's glob, split where the watching starts: the fixed folder before the first
// segment with a wildcard (root) and the segments after it, matched one by one with
// fnmatch(3) ("*.csv", "in-[0-9]?"), where "**" spans any number of folders (none too).
// A wildcard never matches a leading dot, as in the shell: editors' and copiers' temporary
// files (".report.csv.swp", ".in.part") are not arrivals.
class GlobPattern final
{
public:
    // An absolute path with at least one segment after its folder; "" when it parses, else
    // why not (relative, empty, "..", a NUL, too deep).
    static QString problemWith(const QString &glob);
    explicit GlobPattern(const QString &glob);

    const QString &root() const { return m_root; }
    bool spansFolders() const; // has "**" or a wildcard folder segment: subfolders watched
    // relative: a path below root, '/'-separated.
    bool matches(const QString &relative) const;
    // Whether a file below the folder `relative` ("" is root) can match: it is watched.
    bool mayContain(const QString &relative) const;
    // A name straight in root, as readdir gives it, against a glob that does not span
    // folders: the scan of a folder of 100,000 files makes no string for one that misses.
    bool matchesNameInRoot(const char *name) const;

private:
    bool matchFrom(const QStringList &parts, qsizetype part, qsizetype segment,
                   bool prefixOnly) const;

    QString m_root;
    QStringList m_segments;
    QByteArrayList m_encoded; // the segments as fnmatch(3) takes them
};

} // namespace hg
