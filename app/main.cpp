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
    return hg::CommandLine(out, err).run(arguments);
}
