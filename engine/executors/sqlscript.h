#pragma once

#include <QStringList>

namespace hg {

// A SQL task's text as the statements it holds, split where a server's own client would end
// each: at a ';' outside quotes ('…', "…", `…`), comments (-- …, /* … */) and PostgreSQL's
// dollar quotes ($$…$$, $tag$…$tag$); a CREATE TRIGGER's body runs to its END. Statements
// with nothing but blanks and comments are dropped. One rule for every backend: the script
// runs statement by statement in one transaction (see SqlExecutor).
namespace sqlscript {

QStringList split(const QString &text);
// MySQL and MariaDB commit before and after these at once, whatever transaction is open
// (DDL, account and lock statements): a script holding one cannot be all-or-nothing there.
bool commitsImplicitlyOnMySql(const QString &statement);
// BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK (not ROLLBACK TO a savepoint), ABORT: the
// script would end or open the transaction it runs in, and its all-or-nothing would be a lie
// (work committed, then a failure reported; a ROLLBACK reported as success). The verb, or
// empty when the statement leaves the transaction alone.
QString transactionControl(const QString &statement);

} // namespace sqlscript
} // namespace hg
