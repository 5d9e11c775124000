#pragma once

#include <QStringList>

namespace hg {

// Creates the QApplication, opens the store named by --db / HOURGLASS_DB / the default and
// shows the main window. Returns the exit code.
int runGui(int &argc, char **argv, const QStringList &arguments);

} // namespace hg
