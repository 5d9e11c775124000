"""The torture test's sandbox: a private temp dir, the hourglass command line, its engines,
an optional private PostgreSQL server, and a scan of /proc for the tasks' processes; the
SQLite store on a small tmpfs of its own (to fill), and the hourglass processes' wall clock
under libfaketime (to step).

Every path the driver names goes through Sandbox.path(), which refuses one outside the
temp dir (invariant 6). Standard library only (Debian's /usr/bin/python3)."""

import errno
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

SKIP = 77
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"  # Debian: faketime
STORE_DISK = "64m"


class Failure(Exception):
    """An invariant did not hold: its name and the evidence."""

    def __init__(self, invariant, evidence):
        super().__init__(f"{invariant}: {evidence}")
        self.invariant = invariant
        self.evidence = evidence


def poll(predicate, ceiling, interval=0.2):
    """Waits for a state: predicate() truthy within ceiling seconds; returns its value or None."""
    deadline = time.monotonic() + ceiling
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


class Engine:
    """One `hourglass serve`, in a session of its own so that no signal of ours leaks to it."""

    def __init__(self, box, name, lease, slots):
        self.box, self.name, self.lease, self.slots = box, name, lease, slots
        self.proc = None
        self.generation = 0
        self.signalled = None      # the signal we sent this process (its death is ours)
        self.stopped_until = None  # SIGSTOPped: SIGCONT at this monotonic time
        self.restart_at = None     # down: start again at this monotonic time
        self.started_at = None
        self.pids = []             # of every generation

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def start(self):
        self.generation += 1
        self.signalled, self.stopped_until, self.restart_at = None, None, None
        base = self.box.path(f"engine-{self.name}.{self.generation}")
        self.out_path, self.err_path = base + ".out", base + ".err"
        env = dict(self.box.hg_env, HOURGLASS_ENGINE_NAME=self.name)
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [self.box.binary, "--db", self.box.db, "serve", "--lease", str(self.lease),
                 "--slots", str(self.slots)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                cwd=self.box.root, start_new_session=True)
        self.started_at, self.started_real = time.monotonic(), time.time()
        self.pids.append(self.proc.pid)
        self.box.note(f"engine {self.name}.{self.generation} started pid {self.proc.pid}")

    def serving(self):
        return self.alive() and "hourglass: serving" in self.stderr()

    def stderr(self):
        try:
            with open(self.err_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def signal(self, sig):
        if self.alive():
            if sig in (signal.SIGTERM, signal.SIGKILL):
                self.signalled = sig
                if self.stopped_until is not None:  # a stopped process cannot act on TERM
                    os.kill(self.proc.pid, signal.SIGCONT)
                    self.stopped_until = None
            os.kill(self.proc.pid, sig)
            self.box.note(f"engine {self.name}.{self.generation} pid {self.proc.pid} <- "
                          f"{signal.Signals(sig).name}")


class Sandbox:
    def __init__(self, hourglass, backend, seed, private_pg, keep, avoid=()):
        self.backend, self.seed, self.keep, self.avoid = backend, seed, keep, avoid
        self.root = os.path.realpath(tempfile.mkdtemp(prefix=f"hg-torture-{seed}-"))
        os.chmod(self.root, 0o711)  # a private PostgreSQL runs as user postgres below it
        self.log = open(os.path.join(self.root, "driver.log"), "a", buffering=1)
        for d in ("home", "data", "config", "runtime", "tmp", "bin", "pids", "files"):
            os.makedirs(os.path.join(self.root, d), mode=0o700)
        # A private copy: the binary in the build tree may be rebuilt while we run.
        self.binary = self.path("bin/hourglass")
        shutil.copy2(hourglass, self.binary)
        self.ledger = self.path("ledger")
        open(self.ledger, "w").close()
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "HOME": self.path("home"), "XDG_DATA_HOME": self.path("data"),
            "XDG_CONFIG_HOME": self.path("config"), "XDG_RUNTIME_DIR": self.path("runtime"),
            "XDG_CACHE_HOME": self.path("tmp"), "TMPDIR": self.path("tmp"),
            # No session bus: the keychain must not reach the real user's.
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + self.path("runtime/no-bus"),
            "TZ": os.environ.get("TZ", "UTC"), "QT_QPA_PLATFORM": "offscreen",
        }
        self.hg_env = dict(self.env)  # for hourglass processes: their clock may be stepped
        self.clock_file, self.offsets = None, [(time.time(), 0)]
        if "clock-step" not in avoid:
            self._fake_clock()
        self.pg_ctl = self.pg_data = self.pg_admin_url = self.pg_dbname = None
        self.tmpfs, self.full = None, False
        if backend == "sqlite":
            self.db = self.path("store/hourglass.db")
            os.makedirs(os.path.dirname(self.db), mode=0o700)
            if "disk-full" not in avoid:
                self._mount_store_disk(os.path.dirname(self.db))
        else:
            self.db = self._postgres(private_pg)
            if "disk-full" not in avoid:
                print("torture: disk-full left out: on postgresql the store is the server's")
        self.engines = []
        self.children = []  # run --wait processes

    # -- paths and logging ------------------------------------------------------------------
    def path(self, relative):
        full = os.path.realpath(os.path.join(self.root, relative))
        if full != self.root and not full.startswith(self.root + os.sep):
            raise Failure("6 no path outside the temp dir", f"the driver named {full}")
        return full

    def note(self, text):
        self.log.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    # -- the command line -------------------------------------------------------------------
    def hg(self, *args, timeout=60, stdin=None, db=None):
        """Runs one hourglass command; a command that hangs past timeout fails the run."""
        args = [str(a) for a in args]
        for a in args + ([db] if db else []):
            if a.startswith("/"):
                self.path(os.path.relpath(a, self.root))  # raises for a path outside
        argv = [self.binary, "--db", db or self.db] + args
        started, full = time.monotonic(), self.full
        try:
            p = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                               env=self.hg_env, cwd=self.root, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("0 every command returns", f"`hourglass {' '.join(args)}` still "
                          f"running after {timeout} s")
        self.note(f"hg {' '.join(args)[:200]} -> {p.returncode} ({time.monotonic() - started:.1f}"
                  f" s) {p.stderr.strip()[:300]}")
        if p.returncode < 0 and "list-race" in self.avoid and args[0] == "runs" \
                and "bad_variant_access" in p.stderr:
            self.note("known defect list-race: `runs` died of SIGABRT")
            return 1, "", p.stderr  # taken for a failed listing
        if p.returncode < 0:
            raise Failure("0 every command returns", f"`hourglass {' '.join(args)}` died of "
                          f"signal {-p.returncode}: {p.stderr.strip()[:500]}")
        if full and p.returncode != 0 and not p.stderr.strip():
            raise Failure("0 a command that fails on a full disk says why", f"`hourglass "
                          f"{' '.join(args)}` exited {p.returncode} without a word on stderr; "
                          f"stdout: {p.stdout.strip()[:300]}")
        return p.returncode, p.stdout, p.stderr

    def hg_json(self, *args):
        rc, out, err = self.hg(*args, "--json")
        if rc != 0:
            return None
        return json.loads(out)

    def spawn(self, args, tag):
        """A background hourglass process (run --wait) with its output in files."""
        base = self.path(f"files/{tag}")
        with open(base + ".out", "wb") as out, open(base + ".err", "wb") as err:
            proc = subprocess.Popen([self.binary, "--db", self.db] + [str(a) for a in args],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=self.hg_env, cwd=self.root, start_new_session=True)
        self.children.append(proc)
        self.note(f"spawned `hourglass {' '.join(str(a) for a in args)}` pid {proc.pid} ({tag})")
        return proc, base

    # -- the wall clock of hourglass processes ------------------------------------------------
    def _fake_clock(self):
        """libfaketime in every hourglass process (engines and commands; a task's environment
        leaves LD_PRELOAD out): the wall clock is the real one plus the offset in faketime.rc,
        read at every call (FAKETIME_NO_CACHE); the monotonic clock is left alone. One clock
        for all of them, as on one host; the driver and a PostgreSQL server keep the real
        time."""
        if not os.path.exists(LIBFAKETIME):
            print(f"torture: clock-step left out: no {LIBFAKETIME} (apt-get install faketime)")
            return
        self.clock_file = self.path("faketime.rc")
        self._write_clock(0)
        self.hg_env.update(LD_PRELOAD=LIBFAKETIME, FAKETIME_TIMESTAMP_FILE=self.clock_file,
                           FAKETIME_NO_CACHE="1", FAKETIME_DONT_FAKE_MONOTONIC="1")

    def _write_clock(self, offset):
        with open(self.clock_file + ".new", "w") as f:
            f.write(f"{offset:+d}\n")
        os.replace(self.clock_file + ".new", self.clock_file)  # never read half written

    def offset(self):
        return self.offsets[-1][1]

    def set_clock(self, offset):
        self._write_clock(offset)
        self.offsets.append((time.time(), offset))
        self.note(f"clock offset {offset:+d} s")

    def host_now(self):
        """The wall clock the hourglass processes see now (real time plus the offset)."""
        return time.time() + self.offset()

    def real_times(self, stored):
        """The real times at which an hourglass process may have read `stored` (epoch seconds)
        off its clock: one for each offset that was in force then; a step back can give two."""
        if stored is None:
            return []
        found, nearest = [], None
        for i, (since, offset) in enumerate(self.offsets):
            until = self.offsets[i + 1][0] if i + 1 < len(self.offsets) else time.time()
            real = stored - offset
            miss = max(since - 1 - real, real - until - 1, 0)
            if miss == 0:
                found.append(real)
            elif nearest is None or miss < nearest[0]:
                nearest = (miss, real)
        return found or [nearest[1]]

    # -- the store's disk --------------------------------------------------------------------
    def _mount_store_disk(self, folder):
        """The SQLite store's folder on a tmpfs of its own, to fill (fault disk-full)."""
        why = "mounting a tmpfs needs root" if os.geteuid() != 0 else None
        if why is None:
            p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={STORE_DISK},mode=0700",
                                "tmpfs", folder], capture_output=True, text=True, timeout=60)
            why = p.returncode and (p.stderr.strip() or f"mount exited {p.returncode}")
        if why:
            print(f"torture: disk-full left out: no tmpfs for the store ({why})")
            return
        self.tmpfs = folder
        self.filler = os.path.join(folder, "filler")

    def fill_disk(self):
        """Writes to the filler until the tmpfs is full (ENOSPC); returns its size."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            chunk = 1 << 20
            while chunk >= 4096:
                try:
                    os.write(fd, b"\0" * chunk)
                except OSError as e:
                    if e.errno != errno.ENOSPC:
                        raise
                    chunk //= 16
            self.full = True
            return os.fstat(fd).st_size
        finally:
            os.close(fd)

    def free_disk(self):
        os.unlink(self.filler)
        self.full = False

    def _unmount_store_disk(self, keep):
        """Unmounted; a kept temp dir keeps the store's files (in the folder, now on disk)."""
        kept = self.path("store.kept")
        if keep:
            shutil.copytree(self.tmpfs, kept, ignore=shutil.ignore_patterns("filler"))
        p = subprocess.run(["umount", self.tmpfs], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            print(f"torture: umount {self.tmpfs}: {p.stderr.strip()}; detached lazily")
            subprocess.run(["umount", "-l", self.tmpfs], capture_output=True, timeout=60)
        if keep:
            for name in os.listdir(kept):
                os.replace(os.path.join(kept, name), os.path.join(self.tmpfs, name))
            os.rmdir(kept)

    # -- PostgreSQL --------------------------------------------------------------------------
    def _postgres(self, private):
        if private:
            return self._private_postgres()
        url = os.environ.get("HOURGLASS_TEST_PG_URL", "")
        if not url:
            raise RuntimeError("postgresql: HOURGLASS_TEST_PG_URL is unset")
        self.pg_admin_url = url
        self.pg_dbname = f"hg_torture_{self.seed}_{os.getpid()}"
        self.psql(f'CREATE DATABASE "{self.pg_dbname}"')
        parts = urllib.parse.urlsplit(url)
        return urllib.parse.urlunsplit(parts._replace(path="/" + self.pg_dbname))

    def psql(self, sql):
        subprocess.run(["/usr/bin/psql", "-v", "ON_ERROR_STOP=1", "-qAt", self.pg_admin_url,
                        "-c", sql], check=True, capture_output=True, timeout=60,
                       env=dict(self.env, PGCONNECT_TIMEOUT="10"))

    def _private_postgres(self):
        bindir = "/usr/lib/postgresql/15/bin"
        if os.geteuid() != 0 or not os.path.exists(bindir + "/initdb"):
            raise RuntimeError("--private-pg needs root and PostgreSQL 15's initdb")
        self.pg_data = self.path("pg")
        os.makedirs(self.pg_data, mode=0o700)
        shutil.chown(self.pg_data, "postgres", "postgres")
        port = 20000 + (os.getpid() * 7 + self.seed) % 20000
        self.pg_ctl = ["runuser", "-u", "postgres", "--", bindir + "/pg_ctl", "-D",
                       self.pg_data, "-w", "-t", "60", "-l", self.pg_data + "/log"]
        subprocess.run(["runuser", "-u", "postgres", "--", bindir + "/initdb", "-D", self.pg_data,
                        "-A", "trust", "-U", "postgres", "--no-sync"], check=True,
                       capture_output=True, timeout=120, cwd="/")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories="
                f"{self.pg_data} -c fsync=off -c max_connections=200")
        subprocess.run(self.pg_ctl + ["-o", opts, "start"], check=True, capture_output=True,
                       timeout=90, cwd="/")
        self.pg_admin_url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        self.pg_dbname = "torture"
        self.psql("CREATE DATABASE torture")
        return f"postgresql://postgres@127.0.0.1:{port}/torture?sslmode=disable"

    def restart_postgres(self):
        subprocess.run(self.pg_ctl + ["-m", "fast", "restart"], check=True, capture_output=True,
                       timeout=90, cwd="/")

    # -- processes ---------------------------------------------------------------------------
    def marked_processes(self, marker):
        """Every live process whose environment or argv carries the marker: {pid: (env, argv)}."""
        found = {}
        needle = marker.encode()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv = f.read()
                with open(f"/proc/{entry}/environ", "rb") as f:
                    environ = f.read()
                with open(f"/proc/{entry}/stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                        continue  # a zombie has ended; its parent has yet to reap it
            except (OSError, IndexError):
                continue
            if needle in argv or needle in environ:
                env = dict(kv.split("=", 1) for kv in environ.decode(errors="replace").split("\0")
                           if "=" in kv)
                found[int(entry)] = (env, argv.replace(b"\0", b" ").decode(errors="replace"))
        return found

    def close(self, failed, marker):
        for p in self.children:
            if p.poll() is None:
                p.kill()
                p.wait()
        for e in self.engines:
            if e.alive():
                os.kill(e.proc.pid, signal.SIGCONT)
                os.kill(e.proc.pid, signal.SIGKILL)
                e.proc.wait()
        for pid in self.marked_processes(marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if self.pg_dbname and not self.pg_ctl:
            try:
                self.psql(f'DROP DATABASE IF EXISTS "{self.pg_dbname}" WITH (FORCE)')
            except Exception as e:  # noqa: BLE001 - cleanup goes on
                print(f"torture: could not drop database {self.pg_dbname}: {e}")
        if self.pg_ctl:
            subprocess.run(self.pg_ctl + ["-m", "immediate", "stop"], capture_output=True,
                           timeout=90, cwd="/")
        if self.tmpfs:
            self._unmount_store_disk(failed or self.keep)
        self.log.close()
        if not failed and not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
