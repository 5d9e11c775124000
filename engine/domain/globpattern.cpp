#include "globpattern.h"

#include <QCoreApplication>

#include <fnmatch.h>

namespace hg {
namespace {

constexpr qsizetype deepestGlob = 64;

bool hasWildcard(const QString &segment)
{
    return segment.contains(QLatin1Char('*')) || segment.contains(QLatin1Char('?'))
           || segment.contains(QLatin1Char('['));
}

} // namespace

QString GlobPattern::problemWith(const QString &glob)
{
    if (glob.trimmed().isEmpty())
        return QCoreApplication::translate("hg::GlobPattern", "name the files to watch");
    if (!glob.startsWith(QLatin1Char('/')))
        return QCoreApplication::translate("hg::GlobPattern",
                                           "'%1' is not an absolute path (start it with /)")
            .arg(glob.left(300));
    if (glob.contains(QChar(0)))
        return QCoreApplication::translate("hg::GlobPattern", "the path holds a NUL character");
    const QStringList segments = glob.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (segments.isEmpty())
        return QCoreApplication::translate("hg::GlobPattern",
                                           "'/' names no files; name them (/srv/in/*.csv)");
    if (segments.size() > deepestGlob)
        return QCoreApplication::translate("hg::GlobPattern", "more than %1 folders deep")
            .arg(deepestGlob);
    for (const QString &segment : segments)
        if (segment == QLatin1String("..") || segment == QLatin1String("."))
            return QCoreApplication::translate("hg::GlobPattern",
                                               "'%1' holds '%2': name the folder itself")
                .arg(glob.left(300), segment);
    if (glob.endsWith(QLatin1Char('/')))
        return QCoreApplication::translate("hg::GlobPattern",
                                           "'%1' names a folder; name its files (%1*)")
            .arg(glob.left(300));
    if (segments.constLast() == QLatin1String("**"))
        return QCoreApplication::translate("hg::GlobPattern",
                                           "'%1' ends in **: say which files (**/*.csv, **/*)")
            .arg(glob.left(300));
    return {};
}

GlobPattern::GlobPattern(const QString &glob)
{
    const QStringList segments = glob.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    qsizetype fixed = 0;
    while (fixed < segments.size() - 1 && !hasWildcard(segments.at(fixed)))
        ++fixed;
    m_root = QLatin1Char('/') + segments.mid(0, fixed).join(QLatin1Char('/'));
    m_segments = segments.mid(fixed);
    for (const QString &segment : std::as_const(m_segments))
        m_encoded << segment.toLocal8Bit();
}

bool GlobPattern::matchesNameInRoot(const char *name) const
{
    return m_encoded.size() == 1
           && fnmatch(m_encoded.constFirst().constData(), name, FNM_PERIOD) == 0;
}

bool GlobPattern::spansFolders() const
{
    return m_segments.size() > 1;
}

bool GlobPattern::matches(const QString &relative) const
{
    return matchFrom(relative.split(QLatin1Char('/'), Qt::SkipEmptyParts), 0, 0, false);
}

bool GlobPattern::mayContain(const QString &relative) const
{
    return matchFrom(relative.split(QLatin1Char('/'), Qt::SkipEmptyParts), 0, 0, true);
}

// prefixOnly: parts are folders, and what matters is whether a path under them can match.
bool GlobPattern::matchFrom(const QStringList &parts, qsizetype part, qsizetype segment,
                            bool prefixOnly) const
{
    if (part == parts.size())
        return prefixOnly ? segment < m_segments.size() : segment == m_segments.size();
    if (segment == m_segments.size())
        return false;
    const QString &pattern = m_segments.at(segment);
    if (pattern == QLatin1String("**")) {
        // None of the folders, or this one (and maybe more) — a dot folder too is not spanned.
        if (matchFrom(parts, part, segment + 1, prefixOnly))
            return true;
        return !parts.at(part).startsWith(QLatin1Char('.'))
               && matchFrom(parts, part + 1, segment, prefixOnly);
    }
    // The last segment names files: a folder never matches it.
    if (prefixOnly && segment == m_segments.size() - 1)
        return false;
    const QByteArray name = parts.at(part).toLocal8Bit();
    if (fnmatch(m_encoded.at(segment).constData(), name.constData(), FNM_PERIOD) != 0)
        return false;
    return matchFrom(parts, part + 1, segment + 1, prefixOnly);
}

} // namespace hg
