#!/bin/sh
# Runs a test inside a private D-Bus session with GNOME Keyring's Secret Service unlocked, as a
# desktop session has it. Where dbus-run-session or gnome-keyring-daemon is missing, the test
# runs without HOURGLASS_TEST_KEYRING and skips, saying why (in CI it fails: HG_REQUIRE_PART).
set -eu
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
    echo "with_keyring: dbus-run-session or gnome-keyring-daemon missing; the keychain test skips (fails in CI)" >&2
    exec "$@"
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/.local/share" HOURGLASS_TEST_KEYRING=1
# The login keyring is created unlocked with this password: no prompt is needed.
exec dbus-run-session -- sh -c 'printf hourglass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; "$@"' keyring "$@"
