#pragma once

#include <QString>

namespace hg {

// Text from outside (a task's output, an HTTP body, a SQL row, a remote server's message) on
// its way to a terminal. Control characters would be obeyed there: ESC sequences retitle the
// window, move the cursor, rewrite earlier lines; a NUL or BEL does its own thing. Each is
// shown as a visible escape instead (\e, \x00, \u009b); tabs stay, and so do all printable
// characters in every script. Bidirectional overrides are escaped too: they reorder what a
// reader sees (the "Trojan Source" trick).
namespace terminaltext {

QString escaped(const QString &text);

} // namespace terminaltext
} // namespace hg
