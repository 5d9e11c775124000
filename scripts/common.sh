# Shared by scripts/run, scripts/test and scripts/bench: sourced, not run.
# Installs what is missing from Debian's packages and builds with the ci preset.

HG_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DEBIAN_FRONTEND=noninteractive

hg_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

hg_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Packages the build and the application need.
HG_BUILD_PACKAGES=(cmake ninja-build g++ ccache pkg-config python3
    qt6-base-dev qt6-base-dev-tools libgl-dev
    libqt6sql6-sqlite libqt6sql6-psql libqt6sql6-mysql libsqlite3-dev libpq-dev librsvg2-bin libqt6svg6
    qt6-l10n-tools qt6-translations-l10n qtkeychain-qt6-dev libical-dev libcurl4-openssl-dev
    libmicrohttpd-dev)
# The build's installer_files test validates the desktop files and the manual page.
HG_BUILD_PACKAGES+=(desktop-file-utils appstream man-db)
# Packages scripts/package needs to build and check the .deb (and the package tests, to use it).
HG_PACKAGE_PACKAGES=(dpkg-dev file lintian desktop-file-utils appstream man-db systemd)

hg_install_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    hg_log "Installing ${missing[*]}"
    hg_as_root apt-get update -qq
    hg_as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ccache keeps its cache beside the build so a second run on the same machine is quick.
hg_ccache_env() {
    export CCACHE_DIR="${CCACHE_DIR:-$HG_ROOT/build/.ccache}"
    # Paths relative to the source and no working directory in the hash: a second build tree
    # (scripts/package --version) then hits the same cache entries.
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$HG_ROOT}" CCACHE_NOHASHDIR=1
    # The precompiled headers (see HOURGLASS_PCH) are cached only with these.
    export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
}

hg_build() {
    cd "$HG_ROOT"
    hg_ccache_env
    hg_log "Configuring (cmake --preset ci)"
    cmake --preset ci >/dev/null
    hg_log "Building with $(nproc) jobs"
    cmake --build --preset ci -j "$(nproc)"
}

# A free TCP port on loopback, chosen by the kernel.
hg_free_port() {
    /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
