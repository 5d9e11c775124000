#!/usr/bin/python3
"""Acceptance test: Hourglass as assistive technology sees it.

Drives the real binary only through the AT-SPI accessibility tree (pyatspi), the way a screen
reader or a voice-control tool would: no synthetic mouse clicks, no key presses, no knowledge of
Qt object names. Run it through accessibility_test.sh, which starts the private D-Bus session,
the accessibility bus, Xvfb and a fresh HOME; run directly it would talk to your own desktop.

    usage: accessibility_test.py PATH_TO_HOURGLASS

Checks, in this order:
  run-now           select "heartbeat" in "Projects and chains", press "Run now", and the
                    "Runs" table shows that run as "succeeded"
  nameless-widgets  no interactive widget that is showing in the main window lacks a name, on
                    each of the Chain, Runs (with that run selected: its Timeline and Attempts
                    tabs too) and Upcoming tabs
  new-chain         "New chain" on the toolbar adds an item to "Projects and chains", "Add task"
                    gives it a task, and "Run now" runs it to "succeeded"

Ends with "accessibility: N passed, M failed"; exit status 0 only when nothing failed.
Every wait is bounded; the whole test takes a few seconds.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402

APP_START_TIMEOUT = 20.0
ACTION_TIMEOUT = 5.0
RUN_TIMEOUT = 20.0
POLL = 0.2

# Roles a user operates. A showing object with one of these roles needs a name when it can take
# the keyboard focus, or (buttons, menu items: toolbar buttons are not focusable in Qt) when it
# offers an action.
INTERACTIVE_ROLES = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_PUSH_BUTTON_MENU, pyatspi.ROLE_TOGGLE_BUTTON,
    pyatspi.ROLE_CHECK_BOX, pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_COMBO_BOX,
    pyatspi.ROLE_TEXT, pyatspi.ROLE_ENTRY, pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_SPIN_BUTTON,
    pyatspi.ROLE_SLIDER, pyatspi.ROLE_TREE, pyatspi.ROLE_TREE_TABLE, pyatspi.ROLE_TABLE,
    pyatspi.ROLE_LIST, pyatspi.ROLE_LIST_BOX, pyatspi.ROLE_PAGE_TAB_LIST, pyatspi.ROLE_PAGE_TAB,
    pyatspi.ROLE_MENU, pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_CHECK_MENU_ITEM,
    pyatspi.ROLE_RADIO_MENU_ITEM, pyatspi.ROLE_LINK,
}
ACTION_ROLES = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_PUSH_BUTTON_MENU, pyatspi.ROLE_TOGGLE_BUTTON,
    pyatspi.ROLE_CHECK_BOX, pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_MENU_ITEM,
    pyatspi.ROLE_CHECK_MENU_ITEM, pyatspi.ROLE_RADIO_MENU_ITEM, pyatspi.ROLE_MENU,
}
# Items of a view carry their data as name (an empty cell is fine); a combo box's popup list and
# line edit belong to the combo box, which has the name.
DATA_ROLES = {
    pyatspi.ROLE_TABLE_CELL, pyatspi.ROLE_LIST_ITEM, pyatspi.ROLE_TREE_ITEM,
    pyatspi.ROLE_TABLE_COLUMN_HEADER, pyatspi.ROLE_TABLE_ROW_HEADER, pyatspi.ROLE_TABLE_ROW,
}

# Nameless widgets known today, as "role @ named/ancestors" (see key()). They are reported as
# "known" and do not fail the test, so it guards against new ones while these wait for a fix in
# the C++; remove an entry once it is fixed (the test says so). HOURGLASS_A11Y_STRICT=1 fails
# on these too.
KNOWN_NAMELESS: set[str] = set()

TERMINAL_FAILURES = {"failed", "cancelled", "timed out", "interrupted"}


class Failure(Exception):
    pass


class Fatal(Failure):
    """A failure no further waiting can mend: wait_for gives up at once."""


def log(message):
    print(message, flush=True)


# ---- the accessibility tree -------------------------------------------------------------------

def role(obj):
    try:
        return obj.getRole()
    except Exception:
        return None


def role_name(obj):
    try:
        return obj.getRoleName()
    except Exception:
        return "?"


def name(obj):
    try:
        return obj.name or ""
    except Exception:
        return ""


def states(obj):
    try:
        return obj.getState()
    except Exception:
        return None


def has_state(obj, state):
    s = states(obj)
    return s is not None and s.contains(state)


def children(obj, limit=None):
    try:
        count = obj.childCount
    except Exception:
        return []
    if limit is not None:
        count = min(count, limit)
    out = []
    for i in range(count):
        try:
            child = obj.getChildAtIndex(i)
        except Exception:
            child = None
        if child is not None:
            out.append(child)
    return out


ITEM_VIEW_ROLES = {pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE, pyatspi.ROLE_TREE_TABLE,
                   pyatspi.ROLE_LIST, pyatspi.ROLE_LIST_BOX}
# An item view lists every cell of its model as a child (the week of fire times in "Upcoming"
# has thousands): a walk looks at the first ones only. Tables are read through their Table
# interface instead.
ITEM_VIEW_CHILDREN = 60


def walk(obj, ancestors=(), shown_only=True):
    """Yields (object, ancestors) depth first; ancestors is a tuple from the root down.
    shown_only: skips what is not showing, with everything under it (Qt reports the cells of a
    table on a hidden tab as showing)."""
    if shown_only and not has_state(obj, pyatspi.STATE_SHOWING):
        return
    yield obj, ancestors
    kids = children(obj, ITEM_VIEW_CHILDREN if role(obj) in ITEM_VIEW_ROLES else None)
    for child in kids:
        yield from walk(child, ancestors + (obj,), shown_only)


def find_all(root, predicate, shown_only=True):
    return [obj for obj, _ in walk(root, shown_only=shown_only) if predicate(obj)]


def find(root, predicate, shown_only=True):
    for obj, _ in walk(root, shown_only=shown_only):
        if predicate(obj):
            return obj
    return None


def by_role_name(wanted_role, wanted_name):
    return lambda o: role(o) == wanted_role and name(o) == wanted_name


def action_names(obj):
    try:
        action = obj.queryAction()
    except NotImplementedError:
        return []
    except Exception:
        return []
    return [action.getName(i) for i in range(action.nActions)]


def do_action(obj, wanted=None):
    """Calls the action named wanted (or the first one) and returns its name."""
    try:
        action = obj.queryAction()
    except NotImplementedError:
        raise Failure(f"{describe(obj)} offers no actions")
    names = [action.getName(i) for i in range(action.nActions)]
    if not names:
        raise Failure(f"{describe(obj)} offers no actions")
    index = 0 if wanted is None else (names.index(wanted) if wanted in names else -1)
    if index < 0:
        raise Failure(f"{describe(obj)} has no action {wanted!r}, only {names}")
    if not action.doAction(index):
        raise Failure(f"{describe(obj)}: action {names[index]!r} returned false")
    return names[index]


def describe(obj):
    return f"[{role_name(obj)}] {name(obj)!r}"


def path(obj, ancestors):
    parts = [f"{role_name(a)} {name(a)!r}" if name(a) else role_name(a) for a in ancestors[1:]]
    parts.append(describe(obj))
    return " / ".join(parts)


def key(obj, ancestors):
    """A layout-independent handle: the role and the names of the named ancestors."""
    named = [name(a) for a in ancestors[1:] if name(a)]
    return f"{role_name(obj)} @ {'/'.join(named)}"


def dump(root, limit=250):
    lines = []
    for obj, ancestors in walk(root, shown_only=True):
        lines.append("  " * len(ancestors) + describe(obj))
        if len(lines) >= limit:
            lines.append("  ...")
            break
    return "\n".join(lines)


def wait_for(what, probe, timeout):
    """Polls probe() until it returns something truthy; raises Failure after timeout."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            result = probe()
            if result:
                return result
        except Fatal:
            raise
        except Failure as error:
            last_error = error
        except Exception as error:  # a D-Bus hiccup while the app changes its tree
            last_error = error
        if time.monotonic() >= deadline:
            detail = f" ({last_error})" if last_error else ""
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}{detail}")
        time.sleep(POLL)


# ---- the application --------------------------------------------------------------------------

class App:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.process = None
        self.accessible = None
        self.frame = None

    def start(self):
        store = os.path.join(self.work, "store.db")
        self.log_path = os.path.join(self.work, "app.log")
        with open(self.log_path, "wb") as out:
            self.process = subprocess.Popen([self.binary, "--db", store], stdout=out,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        with open(os.path.join(self.work, "app.pid"), "w") as f:
            f.write(str(self.process.pid))
        self.accessible = wait_for("the application in the AT-SPI desktop", self._find_app,
                                   APP_START_TIMEOUT)
        # Nothing of the application's tree is cached: every read asks the application, so a
        # poll sees what is there now without a main loop keeping a cache up to date.
        try:
            Atspi.Accessible.set_cache_mask(self.accessible, Atspi.Cache.NONE)
        except Exception:
            pass
        self.frame = wait_for(
            'the main window (frame "Hourglass")',
            lambda: find_shown(self.accessible, by_role_name(pyatspi.ROLE_FRAME, "Hourglass")),
            APP_START_TIMEOUT)
        # The first start installs the example project; wait until the tree shows it.
        wait_for('"Examples" in "Projects and chains"', lambda: tree_row(self, "Examples"),
                 APP_START_TIMEOUT)

    def _find_app(self):
        if self.process.poll() is not None:
            raise Fatal(f"hourglass exited with status {self.process.returncode} before "
                          "it appeared in the accessibility tree")
        desktop = pyatspi.Registry.getDesktop(0)
        try:
            Atspi.Accessible.clear_cache(desktop)
        except Exception:
            pass
        for candidate in children(desktop):
            try:
                pid = candidate.get_process_id()
            except Exception:
                pid = None
            if pid == self.process.pid or (pid is None and name(candidate) == "hourglass"):
                if children(candidate):
                    return candidate
        return None

    def refresh(self):
        try:
            Atspi.Accessible.clear_cache(self.accessible)
        except Exception:
            pass

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


def find_shown(root, predicate):
    obj = find(root, predicate)
    return obj if obj is not None and has_state(obj, pyatspi.STATE_SHOWING) else None


def the(app, what, predicate, timeout=ACTION_TIMEOUT):
    """The showing object of the main window that predicate picks, waited for."""
    def probe():
        app.refresh()
        return find_shown(app.frame, predicate)
    return wait_for(what, probe, timeout)


def projects_tree(app):
    return the(app, 'the tree "Projects and chains"',
               lambda o: role(o) in (pyatspi.ROLE_TREE, pyatspi.ROLE_TREE_TABLE)
               and name(o) == "Projects and chains")


def tree_rows(tree):
    """The names in column 0 of each row, in view order (rows flattened across levels)."""
    table = tree.queryTable()
    rows = []
    for row in range(table.nRows):
        cell = table.getAccessibleAt(row, 0)
        rows.append((row, cell, name(cell) if cell is not None else ""))
    return rows


def tree_row(app, wanted):
    app.refresh()
    tree = find(app.frame, lambda o: role(o) in (pyatspi.ROLE_TREE, pyatspi.ROLE_TREE_TABLE)
                and name(o) == "Projects and chains")
    if tree is None:
        return None
    for row, cell, text in tree_rows(tree):
        if text == wanted:
            return row, cell
    return None


def tab_is_current(tab):
    # Qt 6.4 gives the current tab no "selected" state; its page tab list takes its name.
    return has_state(tab, pyatspi.STATE_SELECTED) or name(tab.parent) == name(tab)


def select_tab(app, tab_name):
    tab = the(app, f'the page tab "{tab_name}"', by_role_name(pyatspi.ROLE_PAGE_TAB, tab_name))
    if not tab_is_current(tab):
        do_action(tab, "Press")
    wait_for(f'the page tab "{tab_name}" to be the current one',
             lambda: (app.refresh(), tab_is_current(tab))[1], ACTION_TIMEOUT)


def column_of(table_obj, header):
    table = table_obj.queryTable()
    for column in range(table.nColumns):
        try:
            head = table.getColumnHeader(column)
        except Exception:
            head = None
        if head is not None and name(head) == header:
            return column
        try:
            if table.getColumnDescription(column) == header:
                return column
        except Exception:
            pass
    # Fall back on the header children Qt puts first in a table's children.
    headers = [c for c in children(table_obj) if role(c) == pyatspi.ROLE_TABLE_COLUMN_HEADER]
    for column, head in enumerate(headers):
        if name(head) == header:
            return column
    raise Failure(f'{describe(table_obj)} has no column "{header}"; headers: '
                  f"{[name(h) for h in headers]}")


def table_rows(table_obj, columns):
    table = table_obj.queryTable()
    rows = []
    for row in range(table.nRows):
        values = {}
        for title, column in columns.items():
            cell = table.getAccessibleAt(row, column)
            values[title] = name(cell) if cell is not None else ""
        rows.append(values)
    return rows


# ---- the checks -------------------------------------------------------------------------------

def labelled_by(obj):
    try:
        relations = obj.getRelationSet()
    except Exception:
        return []
    return [name(r.getTarget(i)) for r in relations
            if r.getRelationType() == pyatspi.RELATION_LABELLED_BY
            for i in range(r.getNTargets())]


def unlabelled_combo_boxes(app):
    """(path, key) of showing combo boxes no label labels. Qt 6.4 on Linux names a combo box
    by its current text, not by its accessibleName, so without a buddy label a screen reader
    says only the value ("All states, combo box"). Reported, not failed."""
    app.refresh()
    found = []
    for obj, ancestors in walk(app.frame, shown_only=True):
        if role(obj) == pyatspi.ROLE_COMBO_BOX and not any(labelled_by(obj)):
            found.append((path(obj, ancestors), key(obj, ancestors)))
    return found


def nameless_widgets(app):
    """(path, key) of every showing interactive widget without a name."""
    app.refresh()
    found = []
    for obj, ancestors in walk(app.frame, shown_only=True):
        r = role(obj)
        if r not in INTERACTIVE_ROLES or r in DATA_ROLES:
            continue
        if any(role(a) == pyatspi.ROLE_COMBO_BOX for a in ancestors):
            continue
        s = states(obj)
        if s is None:
            continue
        interactive = s.contains(pyatspi.STATE_FOCUSABLE) or (
            r in ACTION_ROLES and action_names(obj))
        if interactive and not name(obj).strip():
            found.append((path(obj, ancestors), key(obj, ancestors)))
    return found


def check_nameless_widgets(app):
    strict = os.environ.get("HOURGLASS_A11Y_STRICT") == "1"
    offenders = {}  # path: (key, tab)
    unlabelled = {}
    # "Attempts" and "Timeline" are the tabs of the selected run, inside "Runs".
    for tab in ("Chain", "Runs", "Attempts", "Timeline", "Upcoming", "Chain"):
        select_tab(app, tab)
        time.sleep(0.2)  # the tab's widgets report showing once laid out
        for where, handle in nameless_widgets(app):
            offenders.setdefault(where, (handle, tab))
        for where, handle in unlabelled_combo_boxes(app):
            unlabelled.setdefault(where, (handle, tab))
    for where, (handle, tab) in sorted(unlabelled.items()):
        log(f"  note: combo box without a label, read by its value only: {handle}\n"
            f"      on tab {tab}: {where}")
    known = {w: v for w, v in offenders.items() if v[0] in KNOWN_NAMELESS and not strict}
    new = {w: v for w, v in offenders.items() if w not in known}
    for where, (handle, tab) in sorted(known.items()):
        log(f"  known nameless (fix it, then drop it from KNOWN_NAMELESS): {handle}\n"
            f"      on tab {tab}: {where}")
    for handle in sorted(KNOWN_NAMELESS - {handle for handle, _ in offenders.values()}):
        log(f"  note: {handle!r} is named now; remove it from KNOWN_NAMELESS")
    if new:
        lines = [f"  {handle}\n      on tab {tab}: {where}"
                 for where, (handle, tab) in sorted(new.items())]
        raise Failure(f"{len(new)} interactive widget(s) without an accessible name:\n"
                      + "\n".join(lines))


def select_chain(app, chain):
    """Selects chain in "Projects and chains" through the accessibility tree only."""
    tree = projects_tree(app)
    found = wait_for(f'"{chain}" in "Projects and chains"', lambda: tree_row(app, chain),
                     ACTION_TIMEOUT)
    row, cell = found
    # Qt 6.4: the Table interface's row is the view's row, counted across the tree's levels;
    # a cell's own "Toggle" action passes its row under its parent instead and so selects
    # another item for a chain (QAccessibleTableCell::selectCell), so the row is used here.
    table = tree.queryTable()
    if not table.isRowSelected(row):
        if not table.addRowSelection(row):
            raise Failure(f'selecting row {row} ("{chain}") of "Projects and chains" '
                          "through the Table interface was refused")

    def selected():
        app.refresh()
        current = tree_row(app, chain)
        if current is None:
            return False
        _, fresh = current
        return has_state(fresh, pyatspi.STATE_SELECTED)
    wait_for(f'"{chain}" to be selected in "Projects and chains"', selected, ACTION_TIMEOUT)
    others = [text for r, c, text in tree_rows(tree)
              if text != chain and has_state(c, pyatspi.STATE_SELECTED)]
    if others:
        raise Failure(f'selecting "{chain}" left {others} selected as well')


def check_run_now(app):
    # Not the current item at start: selecting through AT-SPI must move Run now to it.
    run_now_and_wait(app, "heartbeat")


def run_now_and_wait(app, chain):
    """Selects the chain, presses the toolbar's Run now, waits for its run to succeed."""
    select_chain(app, chain)
    run_now = the(app, 'the toolbar button "Run now"',
                  lambda o: role(o) == pyatspi.ROLE_PUSH_BUTTON and name(o) == "Run now"
                  and role(o.parent) == pyatspi.ROLE_TOOL_BAR)
    wait_for('"Run now" to be enabled', lambda: (app.refresh(),
             has_state(run_now, pyatspi.STATE_ENABLED))[1], ACTION_TIMEOUT)
    run_now.queryAction().doAction(0)

    runs = the(app, 'the table "Runs" (Run now shows the Runs tab)',
               by_role_name(pyatspi.ROLE_TABLE, "Runs"))
    columns = {title: column_of(runs, title) for title in ("Run", "Chain", "State", "Trigger")}
    seen = []

    def succeeded():
        app.refresh()
        rows = table_rows(runs, columns)
        seen[:] = rows
        mine = [r for r in rows if (r["Chain"] == chain or r["Chain"].endswith("/" + chain))
                and r["Trigger"] == "manual"]
        for r in mine:
            if r["State"] == "succeeded":
                return r
            if r["State"] in TERMINAL_FAILURES:
                raise Fatal(f"run {r['Run']} of {chain} ended {r['State']}")
        return None
    try:
        row = wait_for(f'a run of "{chain}" reading "succeeded" in "Runs"', succeeded,
                       RUN_TIMEOUT)
    except Failure as error:
        # Run now runs the tree's current item: a selection must have moved it there.
        raise Failure(f"{error}; the Runs table shows {seen or 'no rows'}")
    others = [r for r in seen if r["Chain"] and not r["Chain"].endswith(chain)]
    if others:
        raise Failure(f"Run now ran another chain: {others}")
    log(f"  run {row['Run']} of {row['Chain']} ({row['Trigger']}): {row['State']}")


def check_new_chain(app):
    select_tab(app, "Chain")
    before = [text for _, _, text in tree_rows(projects_tree(app))]
    new_chain = the(app, 'the toolbar button "New chain"',
                    lambda o: role(o) == pyatspi.ROLE_PUSH_BUTTON and name(o) == "New chain"
                    and role(o.parent) == pyatspi.ROLE_TOOL_BAR)
    do_action(new_chain)

    def added():
        app.refresh()
        now = [text for _, _, text in tree_rows(projects_tree(app))]
        return [text for text in now if text not in before] if len(now) > len(before) else None
    try:
        names = wait_for('a new item in "Projects and chains"', added, ACTION_TIMEOUT)
    except Failure as error:
        raise Failure(f"{error}; the tree shows {before}")
    log(f"  new item: {names}")

    # A task in it from the toolbar (a shell task that echoes), then Run now: it succeeds.
    add_task = the(app, 'the toolbar button "Add task"',
                   lambda o: role(o) == pyatspi.ROLE_PUSH_BUTTON and name(o) == "Add task"
                   and role(o.parent) == pyatspi.ROLE_TOOL_BAR)
    do_action(add_task)
    run_now_and_wait(app, names[0])


# ---- main -------------------------------------------------------------------------------------

def main(argv):
    if len(argv) != 2:
        print("usage: accessibility_test.py PATH_TO_HOURGLASS", file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    if not os.access(binary, os.X_OK):
        log(f"accessibility: FAIL: {binary} is not an executable")
        return 1
    work = os.environ.get("HOURGLASS_A11Y_WORK") or tempfile.mkdtemp(prefix="hourglass-a11y.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    started = time.monotonic()
    app = App(binary, work)
    results = []
    try:
        try:
            app.start()
        except Failure as error:
            log(f"FAIL start: {error}")
            results.append(("start", False))
        else:
            log(f"hourglass {app.process.pid} in the accessibility tree after "
                f"{time.monotonic() - started:.1f} s")
            # Run now first: the Runs tab then has a run, and its details are checked too.
            for title, check in (("run-now", check_run_now),
                                 ("nameless-widgets", check_nameless_widgets),
                                 ("new-chain", check_new_chain)):
                t0 = time.monotonic()
                try:
                    check(app)
                except Failure as error:
                    log(f"FAIL {title}: {error}")
                    results.append((title, False))
                except Exception as error:  # D-Bus errors and the like: a failure, not a crash
                    log(f"FAIL {title}: {type(error).__name__}: {error}")
                    results.append((title, False))
                else:
                    log(f"PASS {title} ({time.monotonic() - t0:.1f} s)")
                    results.append((title, True))
            if not all(ok for _, ok in results) and app.process.poll() is None:
                log("---- the main window as AT-SPI shows it (showing objects only)")
                try:
                    app.refresh()
                    log(dump(app.frame))
                except Exception as error:
                    log(f"(could not dump it: {error})")
    finally:
        crashed = app.process is not None and app.process.poll() is not None
        if crashed and app.frame is not None:  # a start that failed has said so already
            log(f"FAIL hourglass exited early with status {app.process.returncode}")
            results.append(("app-alive", False))
        app.stop()

    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    log(f"took {time.monotonic() - started:.1f} s")
    log(f"accessibility: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
