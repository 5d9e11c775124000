#!/usr/bin/env bash
# Every user-visible string of the GUI, and of the engine it shows (validation, cron errors and
# meanings, store errors), has its German translation: lupdate reads the sources into a copy of
# hourglass_de.ts, and lrelease must find nothing unfinished. A new tr() string without a
# translation fails here, naming it.
set -euo pipefail
root="$1"
tools=/usr/lib/qt6/bin
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$root/resources/translations/hourglass_de.ts" "$work/hourglass_de.ts"
"$tools/lupdate" -silent -no-obsolete -locations none -source-language en -target-language de \
    "$root/ui" "$root/models" "$root/engine" "$root/app/guiapplication.cpp" \
    "$root/app/singleinstance.cpp" "$root/app/storeopencheck.cpp" \
    -ts "$work/hourglass_de.ts"
report="$("$tools/lrelease" "$work/hourglass_de.ts" -qm "$work/hourglass_de.qm")"
echo "$report"
if grep -q 'type="unfinished"' "$work/hourglass_de.ts"; then
    echo "translation: these strings have no German translation in resources/translations/hourglass_de.ts:"
    grep -B2 'type="unfinished"' "$work/hourglass_de.ts" | sed -n 's/.*<source>\(.*\)<\/source>.*/    \1/p'
    exit 1
fi
echo "translation: every string of the GUI and the engine has its German translation"
