#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>

#include <memory>

class QFile;
class QSaveFile;
class QTemporaryFile;

namespace hg {

// Writes a file the user named. A regular file (or a new one) is written whole or not at all:
// QSaveFile writes beside it and renames over it, with the old file's owner, group and mode.
// Where a rename would change what the file is (it has other hard links, which would keep the
// old contents; its owner or group cannot be kept; its folder is not writable) the whole
// contents are staged in a temporary file first and then written into the file in place, as
// cp does; should that fail, the error names the staged copy, which is kept. Nothing but a
// regular file is ever renamed over: a device, a FIFO or /dev/stdout would become a regular
// file (as root, /dev/null itself). Such a target is written directly where the caller
// allows it (a command's --output, as a shell redirection would), and otherwise refused,
// naming what it is.
class OutputFile final
{
public:
    enum class Special {
        WriteDirectly, // a character device, a FIFO or a /dev/fd path: written in place
        Refuse,        // anything but a regular file or a new one is an error
    };

    OutputFile(QString path, Special special);
    ~OutputFile(); // an uncommitted file is discarded
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    Status open();
    bool write(const QByteArray &bytes);
    // Renames a regular file into place; a direct write is flushed.
    Status commit();
    void cancel();
    QString errorString() const;
    bool isDirect() const { return m_direct != nullptr; }
    bool isInPlace() const { return m_staged != nullptr; }

    // For those who rename into place themselves (a file copy, a restore): fine when `path`
    // does not exist or is a regular file; otherwise an error naming what it is.
    static Status checkRenameTarget(const QString &path);
    // Where a write by rename must go: a symbolic link's target (its file, or for a dangling
    // link the file it names), so the link stays a link; any other path as it is.
    static QString renameTarget(const QString &path);

private:
    Status openStaged();
    Status commitStaged();

    QString m_path;
    Special m_special;
    std::unique_ptr<QSaveFile> m_save;
    std::unique_ptr<QFile> m_direct;
    std::unique_ptr<QTemporaryFile> m_staged; // written into m_path in place at commit
};

} // namespace hg
