#!/usr/bin/env bash
# The .deb as a user meets it: built and checked by scripts/package (desktop-file-validate,
# appstreamcli, lintian), installed with dpkg and apt-get, used from /usr/bin, its manual page,
# bash completion and user unit checked, then purged without leaving a file behind.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pkg_check_requirements

pkg_log "building and checking the packages"
deb="$(pkg_build release)"
for field in Depends Recommends Suggests; do
    pkg_log "$field: $(dpkg-deb -f "$deb" "$field")"
done
dpkg-deb -f "$deb" Depends | grep -q libqt6sql6-sqlite || pkg_fail "the SQLite driver is no dependency"
pkg_log "installing $(basename "$deb")"
pkg_install "$deb"
pkg_user_env

expected_version="$(dpkg-deb -f "$deb" Version)"
version="$(/usr/bin/hourglass --version)"
[ "$version" = "hourglass $expected_version" ] || pkg_fail "--version says '$version'"
pkg_log "$version"

next="$(hourglass cron next '*/5 * * * *' --count 1)"
[[ $next =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+ ]] && [ "$(printf '%s\n' "$next" | wc -l)" -eq 1 ] \
    || pkg_fail "cron next printed '$next'"
pkg_log "cron next: $next"

# What the package installs beside the program.
for path in /usr/share/applications/org.hourglass.Hourglass.desktop \
    /usr/share/metainfo/org.hourglass.Hourglass.metainfo.xml \
    /usr/share/icons/hicolor/scalable/apps/org.hourglass.Hourglass.svg \
    /usr/share/man/man1/hourglass.1.gz \
    /usr/share/bash-completion/completions/hourglass \
    /usr/lib/systemd/user/hourglass.service \
    /usr/share/doc/hourglass/copyright /usr/share/doc/hourglass/changelog.gz; do
    [ -f "$path" ] || pkg_fail "the package has no $path"
done
for size in 16 22 24 32 48 64 128 256 512; do
    png="/usr/share/icons/hicolor/${size}x${size}/apps/org.hourglass.Hourglass.png"
    [ -f "$png" ] || pkg_fail "the package has no $png"
    file -b "$png" | grep -q "PNG image data, $size x $size" || pkg_fail "$png: $(file -b "$png")"
done

# The manual page is the --help text: every command of --help is in it.
man_text="$(MANWIDTH=200 man -P cat hourglass 2>/dev/null)"
[ -n "$man_text" ] || pkg_fail "man hourglass shows nothing"
while read -r line; do
    command="$(printf '%s' "$line" | sed -n 's/^  \([a-z]\+\( [a-z]\+\)\?\) .*/\1/p; s/^  \([a-z]\+\( [a-z]\+\)\?\)$/\1/p')"
    [ -z "$command" ] && continue
    grep -q "hourglass $command" <<<"$man_text" || pkg_fail "hourglass(1) lacks '$command' of --help"
done < <(hourglass --help)
pkg_log "hourglass(1) has every command of --help"

# The user unit, as systemd reads it. No systemd runs here (a container) or there (CI), so
# verify reads the file offline, as the user's manager would (--user, in our XDG_RUNTIME_DIR),
# else as the system's; it must say nothing at all: parse errors are only printed. The
# Documentation= line must name an installed manual page.
unit=/usr/lib/systemd/user/hourglass.service
systemd-analyze verify --user "$unit" >"$pkg_work/verify.log" 2>&1 \
    || systemd-analyze verify "$unit" >"$pkg_work/verify.log" 2>&1 \
    || { cat "$pkg_work/verify.log"; pkg_fail "systemd-analyze verify $unit"; }
[ ! -s "$pkg_work/verify.log" ] || { cat "$pkg_work/verify.log"; pkg_fail "systemd-analyze verify has remarks"; }
grep -q '^ExecStart=/usr/bin/hourglass serve$' /usr/lib/systemd/user/hourglass.service \
    || pkg_fail "the unit does not run /usr/bin/hourglass serve"
grep -q '^Restart=on-failure$' /usr/lib/systemd/user/hourglass.service \
    || pkg_fail "the unit does not restart on failure"
pkg_log "systemd-analyze verify: hourglass.service is valid"

# Bash completion: commands, verbs, options, option values, and chain paths from the store.
hourglass project add demo >/dev/null
hourglass chain add demo/nightly >/dev/null
hourglass task add demo/nightly extract --kind shell --command 'echo extract' >/dev/null
completions() {
    bash -c 'source /usr/share/bash-completion/completions/hourglass
             COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hourglass
             printf "%s\n" "${COMPREPLY[@]}"' completion "$@"
}
expect_completion() {
    local want=$1
    shift
    local got
    got="$(completions "$@" | sort | tr '\n' ' ')"
    [ "$got" = "$want " ] || pkg_fail "completing '$*' offers '$got', not '$want'"
}
expect_completion "chain" hourglass chai
expect_completion "add list rm show" hourglass chain ""
expect_completion "demo/nightly" hourglass chain show ""
expect_completion "demo/nightly" hourglass run d
expect_completion "--db --dialect" hourglass cron explain '* * * * *' --d
expect_completion "quartz" hourglass schedule add demo/nightly '0 0 * * *' --dialect q
expect_completion "extract" hourglass dep add demo/nightly ""
expect_completion "end" hourglass chain add demo/x --on-failure e
pkg_log "bash completion: commands, options, values, chain paths and tasks"

pkg_log "purging"
pkg_purge_and_check
