#include "cli/commandline.h"
#include "cli/drivernoisefilter.h"
#include "domain/version.h"
#include "guiapplication.h"
#include "remote/connectionsecrets.h"
#include "store/storelocation.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char *argv[])
{
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);

    QCoreApplication::setApplicationName(QStringLiteral("hourglass"));
    // Settings go to ~/.config/hourglass/hourglass.conf (without it: "Unknown Organization").
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass"));
    QCoreApplication::setApplicationVersion(hg::versionString());

    // A PostgreSQL store's password may be kept in the OS keychain (hourglass store password).
    hg::StoreLocation::setPasswordSource(&hg::ConnectionSecrets::storePassword);

    if (!hg::CommandLine::wantsSubcommand(arguments))
        return hg::GuiApplication::run(argc, argv, arguments);

    // The command line never needs a display: a core application only.
    QCoreApplication app(argc, argv);
    hg::drivernoisefilter::install();
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int code = hg::CommandLine(out, err).run(arguments);
    // Output cut short (a full disk under `export > file`, /dev/full) is a failure: it exited 0
    // with an empty file (helper-11).
    out.flush();
    if (out.status() != QTextStream::Ok || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        err << "hourglass: cannot write the output: "
            << (out.device() ? out.device()->errorString() : QStringLiteral("write error")) << '\n';
        err.flush();
        return code == 0 ? 1 : code;
    }
    return code;
}
