#pragma once

#include "base/result.h"
#include "domain/logline.h"
#include "runrecorder.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace hg {

// What an engine still held when it had to stop while its SQLite store refused writes (a full
// disk that did not clear): the ends of attempts and runs it saw. Kept in a file beside the
// store or, when that cannot be written either, in the user's runtime directory; the next
// engine on the store writes it before it recovers anything, so a task that finished is
// recorded as finished, not taken for interrupted and run again.
class HeldJournal final
{
    Q_DECLARE_TR_FUNCTIONS(hg::HeldJournal)

public:
    // storeFile: the identity of the store's file as the engine opened it
    // (Store::fileIdentity()): a journal is only ever written to that very file, never to
    // another put at the same path since (helper-11: a new store got a deleted one's ends).
    HeldJournal(const QString &storePath, QString storeFile);

    struct Contents
    {
        QList<RunRecorder::Held> changes;
        QList<LogLine> lines; // markers of output that was dropped
    };
    // The file it was saved in, or why it could be saved nowhere.
    Result<QString> save(const Contents &contents) const;
    // Every journal of this store (oldest first), with the files they came from; an
    // unreadable one is an error naming it (nothing is recovered past what it may hold).
    Result<Contents> load(QStringList *files) const;
    // Journals of another file once at this path (deleted or replaced since): left alone.
    QStringList foreignFiles() const { return m_foreign; }
    static void remove(const QStringList &files);

private:
    QStringList candidates() const; // beside the store first, then the runtime directory

    QString m_storePath;
    QString m_storeFile;
    mutable QStringList m_foreign;
};

} // namespace hg
