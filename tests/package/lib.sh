# Shared by the package tests: sourced, not run. They install and purge the hourglass
# package for real, so they need root (or sudo without a password) and dpkg; without them
# they skip (exit 77), or fail where a missing requirement must not pass unnoticed: in CI and
# when HOURGLASS_TEST_REQUIRE_SERVERS is set, as the server tests do (tests/support).

pkg_source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
pkg_work="$(mktemp -d /tmp/hourglass-package-test.XXXXXX)"
chmod 755 "$pkg_work"
pkg_installed_by_us=0

pkg_log() { printf '== %s\n' "$*"; }
pkg_fail() { printf 'FAIL: %s\n' "$*"; exit 1; }

pkg_requirement_missing() {
    if [ -n "${CI:-}" ] || [ -n "${HOURGLASS_TEST_REQUIRE_SERVERS:-}" ]; then
        pkg_fail "$* (required here: CI or HOURGLASS_TEST_REQUIRE_SERVERS is set)"
    fi
    printf 'SKIP: %s\n' "$*"
    exit 77
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

pkg_check_requirements() {
    command -v dpkg >/dev/null && command -v apt-get >/dev/null \
        || pkg_requirement_missing "dpkg and apt-get are needed to install the package"
    [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null \
        || pkg_requirement_missing "installing a package needs root or sudo without a password"
    # Never replace (and then purge) an Hourglass somebody installed on purpose.
    local status
    status="$(dpkg-query -W -f='${Status}' hourglass 2>/dev/null || true)"
    if [ -n "$status" ] && [[ $status != *not-installed ]]; then
        pkg_requirement_missing "the hourglass package is on this machine ($status); the test would replace and purge it"
    fi
    if [ -e /usr/bin/hourglass ]; then
        pkg_requirement_missing "/usr/bin/hourglass exists and belongs to no package"
    fi
}

# Purges the package if a test installed it, whatever happened, and removes the work folder.
pkg_cleanup() {
    local status=$?
    if [ "$pkg_installed_by_us" -eq 1 ] && dpkg-query -W hourglass >/dev/null 2>&1; then
        as_root dpkg --purge hourglass >/dev/null 2>&1 || true
    fi
    rm -rf "$pkg_work"
    exit $status
}
trap pkg_cleanup EXIT INT TERM

# pkg_build NAME [scripts/package options]: builds packages into the work folder and prints
# the .deb's path.
pkg_build() {
    local out="$pkg_work/packages-$1"
    shift
    "$pkg_source_dir/scripts/package" --output "$out" "$@" >&2 || pkg_fail "scripts/package $*"
    ls "$out"/hourglass_*.deb
}

# dpkg -i, then apt-get -f install for what dpkg could not resolve (the SQL driver and Qt
# packages). dpkg fails when a dependency is missing; apt-get then has the last word.
pkg_install() {
    local deb=$1
    pkg_installed_by_us=1
    as_root dpkg -i "$deb" >"$pkg_work/dpkg.log" 2>&1 || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >"$pkg_work/apt.log" 2>&1 \
        || { cat "$pkg_work/dpkg.log" "$pkg_work/apt.log"; pkg_fail "apt-get -f install"; }
    dpkg-query -W -f='${Status} ${Version}\n' hourglass | grep -q "^install ok installed" \
        || { cat "$pkg_work/dpkg.log" "$pkg_work/apt.log"; pkg_fail "hourglass is not installed after dpkg -i $deb"; }
}

# Purges the package and checks that none of its files stays behind.
pkg_purge_and_check() {
    local files="$pkg_work/files"
    dpkg -L hourglass >"$files"
    as_root dpkg --purge hourglass >"$pkg_work/purge.log" 2>&1 \
        || { cat "$pkg_work/purge.log"; pkg_fail "dpkg --purge hourglass"; }
    pkg_installed_by_us=0
    if dpkg-query -W -f='${Status}' hourglass 2>/dev/null | grep -qv "not-installed"; then
        pkg_fail "dpkg still knows hourglass after the purge: $(dpkg-query -W -f='${Status}' hourglass)"
    fi
    local left=()
    while IFS= read -r path; do
        # Directories other packages share (/usr/share/man/man1 …) stay; ours must not.
        if [ -f "$path" ] || [ -L "$path" ]; then
            left+=("$path")
        elif [ -d "$path" ] && [[ $path == */hourglass ]]; then
            left+=("$path/")
        fi
    done <"$files"
    [ ${#left[@]} -eq 0 ] || pkg_fail "left behind after the purge: ${left[*]}"
    pkg_log "purged, nothing left of $(grep -c . "$files") paths"
}

# The user's side: a home of its own, so the store and the settings land in the work folder.
pkg_user_env() {
    export HOME="$pkg_work/home"
    export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config"
    export XDG_RUNTIME_DIR="$pkg_work/run"
    unset HOURGLASS_DB
    mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
    chmod 700 "$XDG_RUNTIME_DIR"
}
