#pragma once

#include <QString>

#include <utility>

namespace hg {

// What went wrong decides the exit code of the command line and how the GUI reacts,
// so the kind is part of the value rather than being guessed from the message.
enum class ErrorKind {
    NotFound,      // a named thing does not exist
    AlreadyExists, // a name that must be unique is taken
    Invalid,       // the input is malformed or breaks a rule (cycle, range, format)
    Storage,       // the database could not be opened, read or written
    Unavailable,   // the store's server cannot be reached now (a restart, a network cut)
    Fenced,        // another engine owns this run now: the write came too late
    Damaged,       // the store's file fails SQLite's integrity check: read-only at most
    Runtime,       // anything else that failed while doing the work
};

struct Error
{
    Error() = default;
    Error(ErrorKind errorKind, QString text, QString inField = {}, int atColumn = 0)
        : kind(errorKind)
        , message(std::move(text))
        , field(std::move(inField))
        , column(atColumn)
    {}

    ErrorKind kind = ErrorKind::Runtime;
    QString message;
    // Where in the input the fault is, when the input has fields (a cron expression): the
    // field's name and the 1-based column, so a caret or a JSON report need not read the text.
    QString field;
    int column = 0;

    static Error notFound(const QString &message) { return {ErrorKind::NotFound, message}; }
    static Error exists(const QString &message) { return {ErrorKind::AlreadyExists, message}; }
    static Error invalid(const QString &message) { return {ErrorKind::Invalid, message}; }
    static Error storage(const QString &message) { return {ErrorKind::Storage, message}; }
    static Error runtime(const QString &message) { return {ErrorKind::Runtime, message}; }
    static Error unavailable(const QString &message) { return {ErrorKind::Unavailable, message}; }
    static Error fenced(const QString &message) { return {ErrorKind::Fenced, message}; }
    static Error damaged(const QString &message) { return {ErrorKind::Damaged, message}; }
    static Error invalidField(const QString &inField, int atColumn, const QString &text)
    {
        return {ErrorKind::Invalid, text, inField, atColumn};
    }

    // Bad input (exit 2) versus a failure while working (exit 1).
    bool isUserError() const
    {
        return kind == ErrorKind::NotFound || kind == ErrorKind::AlreadyExists
               || kind == ErrorKind::Invalid;
    }
};

} // namespace hg
