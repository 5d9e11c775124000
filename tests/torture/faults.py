"""The torture test's faults, a part of its Driver: SIGTERM, SIGKILL and SIGSTOP of `serve`
engines, SIGTERM/SIGKILL of `run --wait` waiters, `run --wait` while serve starts, restarts
of a private PostgreSQL server, a full disk under a SQLite store, and steps of the wall
clock of every hourglass process (the host's clock: engines and commands; the driver, the
PostgreSQL server and the tasks, whose environment leaves LD_PRELOAD out, keep the real
time; the monotonic clock runs on).

Each fault is recorded with Driver.event(): a fault that may change a run's outcome
excuses the runs near it from invariant 7; a clock step does not (a run must not fail
because the wall clock moved), unless --avoid step-takeover (a known defect, torture.py)."""

import math
import os
import re
import signal
import time

from sandbox import Failure, poll

TERM_GRACE = 30       # README: SIGTERM ends the engine "within the grace period" (5 s for tasks)
STORE_RETRY_MAX = 10  # an engine retries a refused write at most this long after (engineconfig.h)
FULL_SECONDS = (1, 10)
STEP_SECONDS = (60, 7200)     # a clock step: 1 min .. 2 h, either way
MAX_OFFSET = 3 * 3600         # the clock stays within 3 h of the real time
FORWARD_RUNS = 30             # what steps forward may make of --misfire all runs, a phase
FAULTS = """
 engine-term   SIGTERM a serve engine (invariant 4), start it again
 engine-kill   SIGKILL a serve engine, start it again 0 s .. lease + 3 s later
 engine-stop   SIGSTOP a serve engine for 0.5 s .. twice its lease, then SIGCONT
 waiter-kill   SIGTERM or SIGKILL a run --wait
 restart-wait  SIGTERM serve, start it again and at once run --wait
 pg-restart    restart the private PostgreSQL server (--private-pg)
 disk-full     fill the SQLite store's own tmpfs (64 MB; root) for 1-10 s while ops go on
 clock-step    step the wall clock of serve and the commands 1 min .. 2 h either way
               (libfaketime); back to the real time before each settle"""
FAULT_WEIGHTS = {"engine-term": 3, "engine-kill": 3, "engine-stop": 3, "waiter-kill": 3,
                 "restart-wait": 2, "pg-restart": 0.3, "disk-full": 2, "clock-step": 2}


def back_unregistered(err):
    """Known defect fenced-reconnect: the engine's reconnect after an outage (a full disk)
    found its session taken over and could not register again at once ("cannot register
    again yet" while the store was away): whether it then says "the store is back" or
    "registered again", it never runs anything after that."""
    away = False
    for line in err.splitlines():
        if "the store cannot be used" in line:
            away = True
        elif "the store is back" in line:
            away = False
        elif "cannot register again yet" in line and away:
            return True
    return False


class Faults:
    """Mixed into Driver: uses its box, rnd, avoid, lease, waiters, event(), refresh()."""

    def init_faults(self):
        self.full_until = None   # the disk is full until this monotonic time
        self.full_event = None   # its event, closed when the filler goes
        self.fault_counts = {}
        self.forward_runs = FORWARD_RUNS
        self.kinds = [k for k in FAULT_WEIGHTS if k not in self.avoid and (
            k != "pg-restart" or self.box.pg_ctl) and (
            k != "disk-full" or self.box.tmpfs) and (k != "clock-step" or self.box.clock_file)]

    def live_engines(self):
        return [e for e in self.box.engines if e.alive() and e.stopped_until is None]

    def term_engine(self, e):
        running = [r["id"] for r in self.refresh().values() if r["state"] == "running"]
        started = time.monotonic()
        self.event(f"SIGTERM engine {e.name}.{e.generation}")
        e.signal(signal.SIGTERM)
        if poll(lambda: not e.alive(), TERM_GRACE) is False:
            raise Failure("4 an engine sent SIGTERM exits within its grace",
                          f"engine {e.name}.{e.generation} (pid {e.proc.pid}) still runs "
                          f"{TERM_GRACE} s after SIGTERM; runs running when it was sent: "
                          f"{running}; recent: {self.recent()}; its output: "
                          f"{open(e.out_path).read()[-800:]}{e.stderr()[-800:]}")
        self.box.note(f"engine exited {time.monotonic() - started:.1f} s after SIGTERM")
        self.checks += 1

    def fault(self):
        if not self.kinds:
            return False
        kind = self.rnd.choices(self.kinds, weights=[FAULT_WEIGHTS[k] for k in self.kinds])[0]
        if not self.inflict(kind):
            return False
        self.fault_counts[kind] = self.fault_counts.get(kind, 0) + 1
        return True

    def inflict(self, kind):
        engines = self.live_engines()
        if kind.startswith("engine") or kind == "restart-wait":
            if not engines:
                return False
            e = self.rnd.choice(engines)
        if kind == "engine-term":
            self.term_engine(e)
            e.restart_at = time.monotonic() + self.rnd.choice([0, 0.5, 2])
        elif kind == "engine-kill":
            self.event(f"SIGKILL engine {e.name}.{e.generation}")
            e.signal(signal.SIGKILL)
            e.proc.wait()
            e.restart_at = time.monotonic() + self.rnd.choice([0, 1, 3, self.lease + 3])
        elif kind == "engine-stop":
            self.event(f"SIGSTOP engine {e.name}.{e.generation}")
            e.signal(signal.SIGSTOP)
            e.stopped_until = time.monotonic() + self.rnd.uniform(0.5, 2 * self.lease)
        elif kind == "waiter-kill":
            live = [w for w in self.waiters if w["end"] is None and w["killed"] is None]
            if not live:
                return False
            w = self.rnd.choice(live)
            sig = self.rnd.choice([signal.SIGTERM, signal.SIGKILL])
            self.event(f"{sig.name} waiter {w['tag']}")
            w["killed"] = sig
            os.kill(w["proc"].pid, sig)
        elif kind == "restart-wait":  # run --wait while serve is starting
            self.term_engine(e)
            e.start()
            if not self.op_wait(clean=True):
                e.restart_at = time.monotonic()
        elif kind == "pg-restart":
            self.event("PostgreSQL restart")
            self.box.restart_postgres()
        elif kind == "disk-full":
            return self.fill_disk()
        elif kind == "clock-step":
            return self.step_clock()
        return True

    # -- a full disk -------------------------------------------------------------------------
    def fill_disk(self):
        """The store's tmpfs filled until ENOSPC, kept full for 1-10 s while operations go on
        (tick_faults tops it up and frees it). The engines must live through it, hold what
        they cannot write and write it once the disk is free; a command may fail meanwhile,
        with a message and a non-zero exit (Sandbox.hg)."""
        if self.full_until is not None:
            return False
        seconds = self.rnd.uniform(*FULL_SECONDS)
        filled = self.box.fill_disk()
        self.full_until = time.monotonic() + seconds
        self.full_event = self.event(f"disk full ({filled / 2**20:.1f} MiB filler, "
                                     f"{seconds:.1f} s)", until=None)
        return True

    def free_disk(self):
        if self.full_until is None:
            return
        self.box.free_disk()
        self.full_until = None
        # A held write goes in at the engine's next retry: until then the disk still counts.
        self.full_event[1] = time.time() + STORE_RETRY_MAX
        self.box.note("EVENT disk freed")

    def full_windows(self):
        """The real times the disk was full (or its writes still held): [(start, end)]."""
        return [(t0, time.time() + STORE_RETRY_MAX if t1 is None else t1)
                for t0, t1, what, _ in self.events if what.startswith("disk full")]

    # -- clock steps -------------------------------------------------------------------------
    def step_clock(self, to=None):
        """The wall clock of every hourglass process steps by 1 min .. 2 h, forward or back
        (or to `to`). Forward, the schedules' missed fire times fire as their misfire
        policies say: legitimate new runs. A --misfire all schedule makes one for each (up
        to 1,000, in one pass: --max-instances does not hold them back): while there is one,
        the steps forward of a phase are kept to FORWARD_RUNS runs, so that they end in time;
        past that the clock steps back instead."""
        old = self.box.offset()
        if to is not None:
            new = to
        elif old and self.rnd.random() < 0.35:
            new = 0
        else:
            size = round(math.exp(self.rnd.uniform(*map(math.log, STEP_SECONDS))))
            sign = self.rnd.choice([1, -1])
            if abs(old + sign * size) > MAX_OFFSET:
                sign = -sign
            new = old + sign * size
        rate = self.misfire_all_rate() if new > old and to is None else 0
        if rate and (new - old) * rate > self.forward_runs:
            room = int(self.forward_runs / rate)
            if room >= STEP_SECONDS[0]:
                new = old + self.rnd.randint(STEP_SECONDS[0], room)
            elif abs(old - (new - old)) <= MAX_OFFSET:
                new = old - (new - old)
            else:
                return False
        self.forward_runs -= max(0, new - old) * rate
        if new == old:
            return False
        self.box.set_clock(new)
        self.event(f"clock step {new - old:+d} s (offset {new:+d} s)",
                   excuses=new > old and "step-takeover" in self.avoid)
        return True

    def misfire_all_rate(self):
        """The runs a second of a step forward makes of the --misfire all schedules (the
        model's are every N s; at an instant, one run at most). Unknown: as many as can be."""
        schedules = self.box.hg_json("schedule", "list")
        if schedules is None:
            return 1e9
        rate = 0
        for s in schedules:
            every = re.match(r"(?:\*/|@every )(\d+)", s.get("expression", ""))
            if s.get("misfire") == "all" and every:
                rate += 1 / int(every.group(1))
        return rate

    # -- the driver's turns --------------------------------------------------------------------
    def judge_exit(self, e, now):
        """An engine that exited though nobody signalled it: started again if that was
        expected (or a known defect looked past), else invariant 9 fails."""
        err = e.stderr()
        if e.proc.returncode == 1 and "already serves" in err:
            e.restart_at = now + 1  # sqlite: a run --wait runs its run in-process
        elif "lost-session" in self.avoid and "cannot register again" in err:
            e.restart_at = now + 1  # known: a woken engine whose session was taken
        elif e.proc.returncode == 1 and "hourglass: serving" not in err and err.strip() \
                and any(t1 >= e.started_real for _, t1 in self.full_windows()):
            e.restart_at = now + 1  # it may refuse to start on a full disk, saying why
            self.box.note(f"engine {e.name}.{e.generation} did not start on the full disk: "
                          f"{err.strip()[-300:]}")
        else:
            raise Failure("9 engines do not die on their own", f"engine {e.name}.{e.generation}"
                          f" exited with {e.proc.returncode}: {err[-1500:]}")

    def inprocess_stuck(self, pending):
        """Queued runs held by the in-process engine of a run --wait of ours still waiting."""
        waiting = {f"hourglass-run-{w['proc'].pid}": w for w in self.waiters if w["end"] is None}
        return [(rid, waiting[r["engine"]]) for rid, r in sorted(pending.items())
                if r["state"] == "queued" and r.get("engine") in waiting]

    def look_past_inprocess(self, pending, quiet):
        if "inprocess-stuck" not in self.avoid or quiet < 20:
            return
        for rid, w in self.inprocess_stuck(pending):
            if w["killed"] is None:
                self.event(f"SIGTERM waiter {w['tag']}: its in-process run {rid} stays queued "
                           f"(known defect inprocess-stuck)")
                w["killed"] = signal.SIGTERM
                os.kill(w["proc"].pid, signal.SIGTERM)

    def stall_hints(self, pending):
        """What a stall of invariant 1 looks like, when it looks like a known defect."""
        hints = [f"run {rid} stays queued on the in-process engine of {w['tag']} (known defect "
                 f"inprocess-stuck)" for rid, w in self.inprocess_stuck(pending)]
        if any(back_unregistered(e.stderr()) for e in self.box.engines if e.alive()):
            hints.append("an engine is back unregistered (known defect fenced-reconnect)")
        return "".join("; " + h for h in hints)

    def look_past_stuck(self, e, now):
        if e.alive() and "fenced-reconnect" in self.avoid and back_unregistered(e.stderr()):
            self.event(f"SIGKILL engine {e.name}.{e.generation}, back unregistered (known "
                       f"defect fenced-reconnect)")
            e.signal(signal.SIGKILL)
            e.proc.wait()
            e.restart_at = now + 1

    def tick_faults(self):
        if self.full_until is None:
            return
        if time.monotonic() >= self.full_until:
            self.free_disk()
        else:
            self.box.fill_disk()  # what the store let go of meanwhile is taken again

    def calm_clock(self):
        """Before settling, once the schedules are gone: the clock back at the real time, so
        that the final checks run on it (the stored times of every offset are translated)."""
        self.forward_runs = FORWARD_RUNS
        if self.box.clock_file and self.box.offset():
            if self.box.offset() < 0:  # forward: the engines let the removed schedules go
                time.sleep(1.5)        # first (they read the change feed every 250 ms)
            self.step_clock(to=0)
