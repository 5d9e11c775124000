"""The torture test's sandbox: a private temp dir, the hourglass command line, its engines,
an optional private PostgreSQL server, and a scan of /proc for the tasks' processes.

Every path the driver names goes through Sandbox.path(), which refuses one outside the
temp dir (invariant 6). Standard library only (Debian's /usr/bin/python3)."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

SKIP = 77


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
        env = dict(self.box.env, HOURGLASS_ENGINE_NAME=self.name)
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [self.box.binary, "--db", self.box.db, "serve", "--lease", str(self.lease),
                 "--slots", str(self.slots)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                cwd=self.box.root, start_new_session=True)
        self.started_at = time.monotonic()
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
    def __init__(self, hourglass, backend, seed, private_pg, keep):
        self.backend, self.seed, self.keep = backend, seed, keep
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
        self.pg_ctl = self.pg_data = self.pg_admin_url = self.pg_dbname = None
        if backend == "sqlite":
            self.db = self.path("store/hourglass.db")
            os.makedirs(os.path.dirname(self.db), mode=0o700)
        else:
            self.db = self._postgres(private_pg)
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
        started = time.monotonic()
        try:
            p = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=self.env,
                               cwd=self.root, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("0 every command returns", f"`hourglass {' '.join(args)}` still "
                          f"running after {timeout} s")
        self.note(f"hg {' '.join(args)[:200]} -> {p.returncode} ({time.monotonic() - started:.1f}"
                  f" s) {p.stderr.strip()[:300]}")
        if p.returncode < 0:
            raise Failure("0 every command returns", f"`hourglass {' '.join(args)}` died of "
                          f"signal {-p.returncode}: {p.stderr.strip()[:500]}")
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
                                    env=self.env, cwd=self.root, start_new_session=True)
        self.children.append(proc)
        return proc, base

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
        self.log.close()
        if not failed and not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
