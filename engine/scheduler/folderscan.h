#pragma once

#include "domain/globpattern.h"
#include "store/filetriggerrepository.h"

#include <QList>
#include <QString>

namespace hg {

// One look at what a glob names now: the regular files that match (symbolic links followed
// to a file, never into a folder, so a link loop cannot trap it), and the folders that may
// hold matches (those a watch needs). Done with readdir and fstatat: 100,000 files in a
// fraction of a second.
class FolderScan final
{
public:
    enum class RootState { Present, Missing, Denied };

    struct Found
    {
        RootState root = RootState::Present;
        QList<FileTriggerRepository::Version> files;
        QStringList folders; // root first
        // Matching names that are not UTF-8: Qt's strings cannot name them again, so no run
        // can be started for them; counted, and a few shown (bytes as \xNN), to be said.
        int undecodable = 0;
        QStringList undecodableExamples;
        // Paths longer than the system takes (PATH_MAX): no call can name them; counted and
        // the first shown, to be said.
        int tooLong = 0;
        QString tooLongExample;
    };
    // A name as readdir gives it, bytes beyond ASCII that are not UTF-8 as \xNN.
    static QString shownBytes(const QByteArray &name);

    // below: one folder under the root ("" the root itself) to look in and under.
    static Found scan(const GlobPattern &glob, const QString &below = QString());
    // folder/name, "/" not doubled.
    static QString join(const QString &folder, const QString &name);
    // One file, when it is a regular file.
    static std::optional<FileTriggerRepository::Version> stat(const QString &path);
};

} // namespace hg
