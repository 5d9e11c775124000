#!/usr/bin/env bash
# What the packages install beside the program, checked in the build tree without root:
# the desktop entry and the metainfo validate, hourglass(1) formats without a warning and has
# every command of `hourglass --help`, and the bash completion completes commands, options,
# values and chain paths against the freshly built program.
#   files_test.sh SOURCE_DIR BINARY_DIR HOURGLASS
set -euo pipefail
source_dir=$1 binary_dir=$2 program=$3
work="$(mktemp -d /tmp/hourglass-files-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
missing() {
    if [ -n "${CI:-}" ] || [ -n "${HOURGLASS_TEST_REQUIRE_SERVERS:-}" ]; then fail "$*"; fi
    printf 'SKIP: %s\n' "$*"
    exit 77
}
for tool in desktop-file-validate appstreamcli man; do
    command -v "$tool" >/dev/null || missing "$tool is not installed (scripts/package installs it)"
done

desktop-file-validate "$source_dir/installer/org.hourglass.Hourglass.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$source_dir/installer/org.hourglass.Hourglass.metainfo.xml" >"$work/as.log" 2>&1 \
    || { cat "$work/as.log"; fail "appstreamcli validate"; }

page="$binary_dir/installer/hourglass.1"
warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)"
[ -z "$warnings" ] || fail "hourglass(1) has formatting warnings: $warnings"
text="$(LC_ALL=C.UTF-8 MANWIDTH=200 man -E UTF-8 -l "$page" 2>/dev/null)"
count=0
while IFS= read -r line; do
    for alternative in $(printf '%s' "$line" | sed -n 's/^  \(.*\)/\1/p' | sed 's/ | /\n/g' \
        | sed -n 's/^\([a-z]\+\( [a-z]\+\)\?\)\( .*\)\?$/\1/p' | tr ' ' '_'); do
        grep -q "hourglass ${alternative//_/ }" <<<"$text" || fail "hourglass(1) lacks '${alternative//_/ }'"
        count=$((count + 1))
    done
done < <("$program" --help)
[ "$count" -gt 20 ] || fail "only $count commands found in --help"
echo "hourglass(1): no warnings, all $count commands of --help"

# The completion calls `hourglass` from PATH: the built one, on a store of its own.
mkdir -p "$work/bin"
ln -s "$program" "$work/bin/hourglass"
export PATH="$work/bin:$PATH" HOURGLASS_DB="$work/store.db" HOME="$work"
hourglass project add demo >/dev/null
hourglass chain add demo/nightly >/dev/null
hourglass task add demo/nightly extract --kind shell --command 'echo extract' >/dev/null
completion="$binary_dir/installer/completion/hourglass"
expect() {
    local want=$1 got
    shift
    got="$(bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hourglass
                    printf "%s\n" "${COMPREPLY[@]}"' "$completion" "$@" | sort | tr '\n' ' ')"
    [ "$got" = "$want " ] || fail "completing '$*' offers '$got', not '$want'"
}
expect "chain" hourglass chai
expect "add list rm show" hourglass chain ""
expect "demo/nightly" hourglass chain show ""
expect "demo/nightly" hourglass run d
expect "--db --dialect" hourglass cron explain '* * * * *' --d
expect "quartz" hourglass schedule add demo/nightly '0 0 * * *' --dialect q
expect "extract" hourglass dep add demo/nightly ""
expect "end" hourglass chain add demo/x --on-failure e
expect "demo" hourglass project rm ""
hourglass schedule add demo/nightly '0 3 * * *' >/dev/null
hourglass run demo/nightly --wait >/dev/null
expect "1" hourglass logs ""
expect "1" hourglass schedule rm ""
echo "bash completion: commands, options, values, chain paths, tasks, runs, schedules"
