#pragma once

#include <QStringList>

namespace hg {
class MainWindow;
}

namespace hg::test {

class TestStore;

// What a person would see wrong on the window's current tab, each named, for a test to list
// at once: the same checks run in English and in German.

// Alt letters that reach more than one thing (a menu, a tab, a visible button, a labelled
// field), on every tab in turn.
QStringList altKeyClashes(MainWindow &window);

// Labels whose Alt letter does not take the focus to their field, on every tab in turn.
QStringList deadLabelMnemonics(MainWindow &window);

// On the current tab: a button, box or one-line label given less width than its text needs,
// a table whose columns run past its right edge, a wrapped label shorter than its lines.
QStringList cutWidgets(MainWindow &window);

// A window of 1024x640 on a chain with a long name, a schedule in another zone and failed
// runs: cutWidgets() on the Chain tab, then on the Runs tab.
QStringList cutAt1024x640(TestStore &t);

} // namespace hg::test
