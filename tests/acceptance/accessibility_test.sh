#!/usr/bin/env bash
# Acceptance test: drives the real hourglass binary through the AT-SPI accessibility tree,
# as a screen reader would, under its own Xvfb in a private D-Bus session.
#   usage: accessibility_test.sh PATH_TO_HOURGLASS
# Needs Debian's python3-pyatspi python3-gi gir1.2-atspi-2.0 at-spi2-core dbus xvfb; openbox is
# started when present (not needed). Uses /usr/bin/python3, whatever python3 is first on PATH.
# Prints "accessibility: N passed, M failed" last; exits 0 only when nothing failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ "${1:-}" = "--inner" ]; then
    # Inside the private D-Bus session: accessibility bus, X server, the test; cleans up after.
    shift
    binary="$1"
    work="$2"
    # Our stderr again; the session bus's own chatter stays in dbus.log.
    exec 2>&3 3>&-
    pids=()
    # shellcheck disable=SC2317 # called by the EXIT trap
    cleanup() {
        local status=$?
        local pid
        # The app, should the test have been killed before it could stop it.
        if [ -s "$work/app.pid" ]; then
            pids=("$(cat "$work/app.pid")" "${pids[@]}")
        fi
        for pid in "${pids[@]}"; do
            kill "$pid" 2>/dev/null || true
        done
        for pid in "${pids[@]}"; do
            for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true # reaps our own children; the app is not one
        done
        exit "$status"
    }
    trap cleanup EXIT
    trap 'exit 130' INT TERM

    # A display of our own: the first of :91..:130 with no lock file that Xvfb manages to take
    # (another server started at the same moment makes it exit, and the next one is tried).
    display=""
    for n in $(seq 91 130); do
        [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] && continue
        Xvfb ":$n" -screen 0 1600x1000x24 -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
        xvfb_pid=$!
        for _ in $(seq 50); do
            [ -S "/tmp/.X11-unix/X$n" ] && break
            kill -0 "$xvfb_pid" 2>/dev/null || break
            sleep 0.1
        done
        if [ -S "/tmp/.X11-unix/X$n" ] && kill -0 "$xvfb_pid" 2>/dev/null; then
            pids+=("$xvfb_pid")
            display=":$n"
            break
        fi
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    done
    if [ -z "$display" ]; then
        tail -n 20 "$work/xvfb.log"
        echo "accessibility: FAIL: Xvfb found no free display in :91..:130"
        exit 1
    fi
    export DISPLAY="$display"

    if command -v openbox >/dev/null 2>&1; then
        openbox --sm-disable >"$work/openbox.log" 2>&1 &
        pids+=($!)
    fi
    /usr/libexec/at-spi-bus-launcher --launch-immediately >"$work/at-spi-bus.log" 2>&1 &
    pids+=($!)
    # The registry daemon is normally started on demand over D-Bus; start it anyway, it
    # waits for the accessibility bus itself.
    /usr/libexec/at-spi2-registryd >"$work/registryd.log" 2>&1 &
    pids+=($!)

    export HOURGLASS_A11Y_WORK="$work"
    status=0
    timeout --kill-after=3 45 /usr/bin/python3 "$here/accessibility_test.py" "$binary" || status=$?
    if [ "$status" -ne 0 ]; then
        if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
            echo "accessibility: FAIL: the test timed out"
        fi
        for log in app.log xvfb.log at-spi-bus.log registryd.log dbus.log; do
            if [ -s "$work/$log" ]; then
                echo "---- $log (last 40 lines)"
                tail -n 40 "$work/$log"
            fi
        done
    fi
    exit "$status"
fi

binary="${1:?usage: accessibility_test.sh PATH_TO_HOURGLASS}"
packages="python3-pyatspi python3-gi gir1.2-atspi-2.0 at-spi2-core dbus xvfb"
binary="$(readlink -f "$binary")"
[ -x "$binary" ] || { echo "accessibility: FAIL: $binary is not an executable"; exit 1; }
for tool in timeout dbus-run-session Xvfb /usr/libexec/at-spi-bus-launcher \
    /usr/libexec/at-spi2-registryd; do
    command -v "$tool" >/dev/null 2>&1 \
        || { echo "accessibility: FAIL: $tool is missing (apt-get install $packages)"; exit 1; }
done
if ! /usr/bin/python3 -c 'import pyatspi' 2>/dev/null; then
    echo "accessibility: FAIL: no pyatspi for /usr/bin/python3 (apt-get install $packages)"
    exit 1
fi

work="$(mktemp -d /tmp/hourglass-a11y.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/config" "$work/data" "$work/cache" "$work/runtime"
chmod 0700 "$work" "$work/runtime"

# A fresh user: no settings, no store, no session of the desktop the test runs on.
export HOME="$work/home"
export XDG_CONFIG_HOME="$work/config"
export XDG_DATA_HOME="$work/data"
export XDG_CACHE_HOME="$work/cache"
export XDG_RUNTIME_DIR="$work/runtime"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1
export QT_ACCESSIBILITY=1
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS SESSION_MANAGER \
    QT_QPA_PLATFORMTHEME XDG_SESSION_TYPE PYTHONPATH PYTHONHOME 2>/dev/null || true
export QT_QPA_PLATFORM=xcb

timeout --kill-after=3 55 \
    dbus-run-session -- bash "$here/accessibility_test.sh" --inner "$binary" "$work" \
    3>&2 2>"$work/dbus.log"
