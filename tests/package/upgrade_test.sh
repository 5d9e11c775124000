#!/usr/bin/env bash
# Upgrades keep the user's store. Two builds of different versions: the release build and a
# second tree whose version is one step newer (scripts/package --version). With the older
# package installed, a user fills a store; the newer package is installed over it with dpkg;
# the store is untouched by the upgrade, and the newer program opens it on its first start
# with every chain, task and run in place. A store written by the first schema (an older
# Hourglass) is migrated to the newest on that first start, its data kept.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pkg_check_requirements

pkg_log "building the release packages"
old_deb="$(pkg_build release --no-check)"
old_version="$(dpkg-deb -f "$old_deb" Version)"
new_version="$old_version.1"
pkg_log "building version $new_version"
new_deb="$(pkg_build newer --version "$new_version" --no-check)"
dpkg --compare-versions "$new_version" gt "$old_version" || pkg_fail "$new_version is not newer"

pkg_log "installing $old_version"
pkg_install "$old_deb"
pkg_user_env
[ "$(hourglass --version)" = "hourglass $old_version" ] || pkg_fail "$old_version is not installed"

# A store as a user makes it, with the default location: a chain, a task, a schedule, a run.
hourglass project add demo >/dev/null
hourglass chain add demo/nightly >/dev/null
hourglass task add demo/nightly hello --kind shell --command 'echo hello from the old version' >/dev/null
hourglass schedule add demo/nightly '0 3 * * *' >/dev/null
hourglass run demo/nightly --wait >/dev/null || pkg_fail "the run on $old_version failed"
store="$XDG_DATA_HOME/hourglass/hourglass.db"
[ -f "$store" ] || pkg_fail "no store at $store"

# A store written by the first schema, as the first Hourglass left it: the first migration
# of the source tree (released migrations never change) and a chain in it.
legacy="$pkg_work/legacy.db"
/usr/bin/python3 - "$pkg_source_dir/resources/sql/sqlite/001_initial.sql" "$legacy" <<'EOF'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1], encoding="utf-8").read())
now = int(time.time() * 1000)
db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at BIGINT NOT NULL)")
db.execute("INSERT INTO schema_version VALUES (1, ?)", (now,))
db.execute("INSERT INTO project (name, created_at) VALUES ('legacy', ?)", (now,))
db.execute("INSERT INTO chain (project_id, name, created_at) SELECT id, 'weekly', ? FROM project",
           (now,))
db.commit()
EOF
sum_before="$(sha256sum "$store" | cut -d' ' -f1)"

pkg_log "upgrading to $new_version with dpkg -i"
pkg_install "$new_deb"
[ "$(dpkg-query -W -f='${Version}' hourglass)" = "$new_version" ] || pkg_fail "dpkg did not upgrade"
[ "$(sha256sum "$store" | cut -d' ' -f1)" = "$sum_before" ] || pkg_fail "the upgrade changed the store"
[ "$(hourglass --version)" = "hourglass $new_version" ] || pkg_fail "$new_version is not the program"

# First start of the newer program on the user's store.
json_count() { /usr/bin/python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
[ "$(hourglass chain list --json | json_count)" -eq 1 ] || pkg_fail "the chain is gone"
[ "$(hourglass task list demo/nightly --json | json_count)" -eq 1 ] || pkg_fail "the task is gone"
[ "$(hourglass schedule list demo/nightly --json | json_count)" -eq 1 ] || pkg_fail "the schedule is gone"
[ "$(hourglass runs --json | json_count)" -eq 1 ] || pkg_fail "the run is gone"
hourglass run demo/nightly --wait >/dev/null || pkg_fail "a run on $new_version failed"
pkg_log "$new_version opened the store of $old_version: chain, task, schedule and run kept"

# First start on the first-schema store: migrated to the newest schema, data kept.
latest="$(ls "$pkg_source_dir"/resources/sql/sqlite/*.sql | wc -l)"
hourglass --db "$legacy" chain list --json | grep -q '"path": "legacy/weekly"' \
    || pkg_fail "the chain of the first-schema store is gone"
schema="$(/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT MAX(version) FROM schema_version").fetchone()[0])' "$legacy")"
[ "$schema" = "$latest" ] || pkg_fail "the first-schema store is at version $schema, not $latest"
pkg_log "$new_version migrated a first-schema store to schema $latest on its first start"

pkg_log "purging"
pkg_purge_and_check
