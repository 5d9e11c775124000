#pragma once

#include <QStringList>
#include <QTextStream>

namespace hg {

// The `hourglass GROUP VERB ...` command line: routes to the subcommands and turns their
// results into exit codes (0 ok, 1 runtime failure, 2 bad usage or input).
class CommandLine final
{
public:
    CommandLine(QTextStream &out, QTextStream &err);

    // True when the arguments name a subcommand (so no GUI is needed).
    static bool wantsSubcommand(const QStringList &arguments);
    int run(const QStringList &arguments);

private:
    int printUsage();

    QTextStream &m_out;
    QTextStream &m_err;
};

} // namespace hg
