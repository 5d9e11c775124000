#!/usr/bin/python3
"""Randomized, seeded operation-and-fault torture test of Hourglass, driven through its
command line (in the spirit of FoundationDB's simulation and SQLite's crash tests).

Random operations (definitions, runs, run --wait, stop/pause/resume/rerun, backfill, export
and import, chain rm while it runs) interleave with faults (SIGTERM, SIGKILL and
SIGSTOP/SIGCONT of `serve` engines, SIGTERM/SIGKILL of `run --wait` waiters, restarts of a
private PostgreSQL server; disk-full: the SQLite store's tmpfs filled for 1-10 s, as root;
clock-step: the wall clock of every hourglass process stepped 1 min .. 2 h either way by
libfaketime, the monotonic clock left alone, and set back to the real time before settling).
After each chaos phase the driver lets everything settle and checks the invariants (see
INVARIANTS); stored times are read through the clock offsets in force when they were
written. The choices follow --seed; the timing does not.

  /usr/bin/python3 tests/torture/torture.py --hourglass build/app/hourglass --seconds 120
  ... --backend postgresql --engines 2   (HOURGLASS_TEST_PG_URL, or --private-pg as root)

Exit 0: all invariants held; 1: one did not (the seed and a replay command are printed);
77: skipped (postgresql without a server)."""

import argparse
import glob
import os
import random
import signal
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sandbox import SKIP, Engine, Failure, Sandbox, poll  # noqa: E402
from model import Model  # noqa: E402
from faults import FAULTS, TERM_GRACE, Faults  # noqa: E402

INVARIANTS = """
 1 every run is terminal once the engines have had time (progress-based ceiling)
 2 no task attempt ran twice (the ledger has no duplicate run/task/attempt)
 3 every run --wait returns soon after its run ends, with 0 exactly when it succeeded
 4 every engine sent SIGTERM exits within its grace
 5 no process of a task outlives its run
 6 the driver never names a path outside its temp dir
 7 a run nothing disturbed, of a chain whose tasks all succeed, succeeds
 8 export, import into an empty store, export again gives the same bytes
 9 engines do not die on their own, also not on a full disk (one started while it is full
   may refuse, saying why); no command hangs or crashes, and one that fails on a full disk
   exits non-zero with a message (0)
10 no task cgroup (hourglass-tasks-PID) of our engines is left once all have ended
11 a run whose id a command printed is listed until its chain is removed (nothing lost)"""

WAITER_SLACK = 20    # a run --wait exits this soon after its run's end is stored
LEFTOVER_GRACE = 15  # a task's processes are gone this soon after its run ended
AVOIDABLE = ("setsid", "rm-running", "selfdestruct", "restart-wait", "waiter-kill",
             "engine-kill", "engine-stop", "engine-term", "pg-restart", "disk-full",
             "clock-step",
             "wait-race", "lost-session", "inprocess-cancel", "create-race", "cgroup-leak",
             "fenced-reconnect", "full-wait", "inprocess-stuck", "step-takeover", "list-race")
# Known defects to tolerate, so that a run can look past them: wait-race: run --wait exits 1
# "another engine already serves" when it raced serve's start; lost-session: serve woken
# after its lease exits 0 ("cannot register again") when a run --wait took the store;
# inprocess-cancel: run --wait's own engine starts other queued runs and cancels them;
# create-race: the store is always created before the engines start; cgroup-leak: skip 10;
# fenced-reconnect: serve whose reconnect after an outage (a full disk) finds its session
# taken over by a run --wait, and cannot register again at once, never runs anything again
# (its runs stay queued; those it claims never start a task): it is killed and started
# again; full-wait, inprocess-stuck and step-takeover name defects fixed since (README): a run
# --wait that took a live serve (its lease run out by a full disk or a clock step) for gone,
# and a run --wait engine that never looked again at its run held back by a limit; the
# markers stay so that an old binary can still be looked past;
# list-race: `runs` dies of SIGABRT (std::bad_variant_access) when a listed run's chain is
# removed before its path is read: taken for a failed listing.


def parse_time(text):
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Driver(Faults):
    def __init__(self, args, box, avoid):
        self.a, self.box, self.avoid = args, box, avoid
        self.rnd = random.Random(args.seed)
        self.m = Model(self.rnd, box, self.avoid)
        self.ops = self.faults = self.checks = 0
        self.lease = 4
        self.waiters = []
        self.events = []       # [real time, until (None: going on), what, excuses]: the faults
        self.runs = {}         # the last `runs --json`, by id
        self.first_seen = {}   # run id -> real time before which it was not listed
        self.created = {}      # run id -> chain, for the runs whose id a command printed
        self.last_list = time.time()
        self.init_faults()

    # -- bookkeeping -------------------------------------------------------------------------
    def event(self, what, until=0, excuses=True):
        """A fault at this real time (until another, or None while it goes on); one that
        excuses may change a run's outcome (invariant 7)."""
        now = time.time()
        record = [now, now + until if until is not None else None, what, excuses]
        self.events.append(record)
        self.box.note("EVENT " + what)
        return record

    def real_span(self, run):
        """The real times a run may have started and ended (None: not yet), through the clock
        offsets in force when its engine read its clock."""
        started = self.box.real_times(parse_time(run.get("startedAt")))
        finished = self.box.real_times(parse_time(run.get("finishedAt")))
        return (min(started) if started else None), (max(finished) if finished else None)

    def refresh(self):
        listed = self.box.hg_json("runs", "--limit", "1000000")
        if listed is None:
            return self.runs
        if not isinstance(listed, list) or (listed and not {"id", "state", "chain"} <= set(
                listed[0])):
            raise Failure("0 runs --json has the documented shape", repr(listed)[:400])
        now = time.time()
        self.runs = {r["id"]: r for r in listed}
        for rid in self.runs:
            self.first_seen.setdefault(rid, self.last_list)
        self.last_list = now
        return self.runs

    def tick(self):
        """Reaps waiters; wakes, restarts and watches engines; tops the full disk up or frees it."""
        self.tick_faults()
        now = time.monotonic()
        for e in self.box.engines:
            if e.stopped_until is not None and now >= e.stopped_until and e.alive():
                e.signal(signal.SIGCONT)
                e.stopped_until = None
            if e.proc is not None and not e.alive() and e.signalled is None \
                    and e.restart_at is None:
                self.judge_exit(e, now)  # invariant 9
            if e.restart_at is not None and now >= e.restart_at and not e.alive():
                e.start()
            self.look_past_stuck(e, now)

    # -- operations --------------------------------------------------------------------------
    def op_run(self):
        chain = self.m.pick_chain()
        if chain:
            rc, out, _ = self.box.hg("run", chain)
            if rc == 0 and out.strip().isdigit():
                self.created[int(out.strip())] = chain
            return True

    def op_wait(self, clean=False):
        chain = self.m.pick_chain(clean=clean)
        if not chain:
            return False
        tag = f"wait{len(self.waiters)}"
        proc, base = self.box.spawn(["run", chain, "--wait"], tag)
        w = dict(tag=tag, proc=proc, base=base, chain=chain, start=time.time(), killed=None,
                 end=None, rc=None, selfdestruct=self.m.chains[chain]["selfdestruct"])
        self.waiters.append(w)

        def reap():  # the exit time to the moment, whatever the driver is busy with
            rc = proc.wait()
            w["rc"], w["end"] = rc, time.time()
        threading.Thread(target=reap, daemon=True).start()
        return True

    def pick_run(self, states=None):
        ids = [r["id"] for r in self.runs.values() if states is None or r["state"] in states]
        return self.rnd.choice(sorted(ids)) if ids else None

    def op_control(self):
        verb = self.rnd.choice(["stop", "pause", "resume", "rerun", "rerun-failed"])
        states = {"stop": {"queued", "running", "waiting", "paused"},
                  "pause": {"running", "queued"}, "resume": {"paused"}}.get(verb)
        rid = self.pick_run(states)
        if rid is None:
            return False
        if verb == "stop":
            self.event(f"stop run {rid}")
        args = ["rerun", rid, "--failed-only"] if verb == "rerun-failed" else [verb, rid]
        self.box.hg(*args)
        return True

    def op_rm_running(self):
        rid = self.pick_run({"running"})
        if rid is None or "rm-running" in self.avoid:
            return False
        chain = self.runs[rid]["chain"]
        if self.m.rm_chain(chain) == 0:  # else refused: "has runs that have not ended"
            self.event(f"chain rm {chain} while run {rid} runs")
        return True

    def op_backfill(self):
        chain = self.m.pick_chain(scheduled=True)
        if not chain:
            return False
        now = datetime.fromtimestamp(self.box.host_now(), timezone.utc)  # the host's clock
        fro = (now - timedelta(seconds=self.rnd.randint(3, 20))).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.box.hg("backfill", chain, "--from", fro, "--to", now.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "--parallel", self.rnd.randint(1, 3),
                    "--order", self.rnd.choice(["oldest", "newest"]))
        return True

    def op_export_import(self):
        """Invariant 8, on a fresh scratch store (no engine serves it)."""
        n = self.ops
        first, second = self.box.path(f"files/export{n}.json"), self.box.path(
            f"files/export{n}b.json")
        scratch = self.box.path(f"files/scratch{n}.db")
        rc, _, err = self.box.hg("export", "--output", first)
        if rc != 0 and self.box.full:
            return True  # may fail while the disk is full (with a message: Sandbox.hg)
        if rc != 0:
            raise Failure("8 export/import round trip", f"export exited {rc}: {err}")
        rc, _, err = self.box.hg("import", first, db=scratch)
        if rc != 0:
            raise Failure("8 export/import round trip", f"import into an empty store exited "
                          f"{rc}: {err}; document {first}")
        self.box.hg("export", "--output", second, db=scratch)
        self.checks += 1
        if open(first, "rb").read() != open(second, "rb").read():
            raise Failure("8 export/import round trip", f"{first} and {second} differ "
                          f"(diff them)")
        return True

    def recent(self, n=8):
        return [e[2] for e in self.events[-n:]]

    # -- phases ------------------------------------------------------------------------------
    def chaos(self, until):
        ops = [(self.m.op_project, 1), (self.m.op_chain, 4), (self.m.op_task, 6),
               (self.m.op_rm_task, 1), (self.m.op_dep, 2), (self.m.op_schedule, 3),
               (self.m.op_rm_schedule, 1), (self.m.op_rm_chain, 1), (self.m.op_rm_project, 0.2),
               (self.op_run, 4), (self.op_wait, 3), (self.op_control, 4),
               (self.op_rm_running, 0.7), (self.op_backfill, 1), (self.op_export_import, 0.4),
               (self.fault, 4)]
        funcs, weights = zip(*ops)
        next_list = 0
        while time.monotonic() < until:
            f = self.rnd.choices(funcs, weights=weights)[0]
            if f():
                if f == self.fault:
                    self.faults += 1
                else:
                    self.ops += 1
            if time.monotonic() >= next_list:
                self.refresh()
                next_list = time.monotonic() + 2
            self.tick()
            time.sleep(self.rnd.uniform(0, 0.3))

    def settle(self):
        """Stops new work, wakes every engine, resumes what is paused, waits for all runs."""
        for e in self.box.engines:
            if e.stopped_until is not None:
                e.stopped_until = time.monotonic()
            if not e.alive() and e.restart_at is not None:
                e.restart_at = time.monotonic()
        self.free_disk()
        self.tick()
        for s in self.box.hg_json("schedule", "list") or []:
            self.box.hg("schedule", "rm", s["id"])
        self.m.all_unscheduled()
        self.calm_clock()  # once no schedule is left to fire what a step forward skips
        resumed, last_change, signature = {}, time.monotonic(), None
        stall = 60 + 2 * self.lease
        while True:
            self.tick()
            pending = {rid: r for rid, r in self.refresh().items()
                       if r["state"] not in ("succeeded", "failed", "cancelled", "timed_out")}
            if not pending:
                break
            for rid, r in pending.items():
                if r["state"] == "paused":
                    if rid not in resumed:
                        self.box.hg("resume", rid)
                        resumed[rid] = time.monotonic()
            self.look_past_inprocess(pending, time.monotonic() - last_change)
            sig = (tuple(sorted((i, r["state"]) for i, r in pending.items())),
                   os.path.getsize(self.box.ledger))
            if sig != signature:
                signature, last_change = sig, time.monotonic()
            elif time.monotonic() - last_change > stall:
                raise Failure("1 every run is terminal once engines have had time",
                              f"no progress for {stall} s; runs not terminal: "
                              f"{sorted(pending.items())[:10]}; engines: {self.engine_states()}; "
                              f"recent: {self.recent()}{self.stall_hints(pending)}")
            time.sleep(0.5)
        self.checks += 1

    def engine_states(self):
        return [(e.name, e.generation, "up" if e.alive() else "down", e.stderr()[-300:])
                for e in self.box.engines]

    def check(self):
        self.check_ledger()
        self.check_waiters()
        self.check_created()
        self.check_clean_runs()
        self.check_leftovers(final=False)

    def ledger(self):
        with open(self.box.ledger) as f:
            return [line.split() for line in f if line.strip()]

    def check_ledger(self):
        seen = {}
        for fields in self.ledger():
            if fields[0] != "S":
                continue
            key = tuple(fields[1:4])
            if key in seen:
                raise Failure("2 no task attempt ran twice",
                              f"run {key[0]} task {key[1]} attempt {key[2]} started by pid "
                              f"{seen[key]} and again by pid {fields[4]}; recent: {self.recent()}")
            seen[key] = fields[4]
        self.checks += 1

    def check_waiters(self):
        for w in self.waiters:
            if w["killed"] is not None:
                if w["killed"] == signal.SIGTERM and not poll(lambda: w["end"], TERM_GRACE):
                    raise Failure("3 run --wait returns", f"{w['tag']} ignores SIGTERM")
                continue
            with open(w["base"] + ".out") as f:
                first = f.readline().strip()
            rid = int(first) if first.isdigit() else None
            if rid is not None:
                self.created.setdefault(rid, w["chain"])
            run = self.runs.get(rid)
            finished = self.real_span(run)[1] if run else None
            if finished is not None:  # a full disk holds the end back until it is written
                finished = max([finished] + [t1 for t0, t1 in self.full_windows()
                                             if t0 <= (w["end"] or time.time())
                                             and t1 >= finished - 1])
            if w["end"] is None:
                poll(lambda: w["end"], max(1, (finished or time.time()) + WAITER_SLACK
                                           - time.time()))
            evidence = (f"{w['tag']}: `hourglass run {w['chain']} --wait` started "
                        f"{datetime.fromtimestamp(w['start']).isoformat()} run {rid} "
                        f"stored {run and run['state']} finishedAt {run and run['finishedAt']} "
                        f"(real {finished and datetime.fromtimestamp(finished).isoformat()})")
            if w["end"] is None:
                raise Failure("3 every run --wait returns", evidence + f": still waiting, "
                              f"{time.time() - (finished or w['start']):.0f} s after; "
                              f"recent: {self.recent()}")
            tail = open(w["base"] + ".err").read()[-600:]
            evidence += f"; exited {w['rc']} at {datetime.fromtimestamp(w['end']).isoformat()}: "
            evidence += tail
            if "wait-race" in self.avoid and w["rc"] == 1 and "already serves" in tail:
                continue  # known: run --wait racing serve's start (see --help)
            if "full-wait" in self.avoid and w["rc"] == 1 and "disk is full" in tail:
                continue  # known: run --wait gives up on a full disk, its run goes on
            if run is not None:
                if finished and w["end"] - finished > WAITER_SLACK:
                    raise Failure("3 run --wait returns soon after its run ends", evidence)
                if (w["rc"] == 0) != (run["state"] == "succeeded"):
                    raise Failure("3 run --wait exits 0 exactly when its run succeeded", evidence)
            elif rid is not None and w["selfdestruct"] and w["chain"] not in self.m.removed:
                said = self.engines_said(rid)  # the run is gone with its chain: ask the engines
                if said in ("succeeded", "failed", "cancelled", "timed_out") and (
                        w["rc"] == 0) != (said == "succeeded"):
                    raise Failure("3 run --wait exits 0 exactly when its run succeeded",
                                  evidence + f" (its self-destruct chain removed itself; the "
                                  f"engine that ran it printed `run {rid} {said}`)")
        self.checks += 1

    def engines_said(self, rid):
        """The last state `serve` printed for a run (its stdout: `TIME run ID STATE`)."""
        said = None
        for e in self.box.engines:
            for g in range(1, e.generation + 1):
                try:
                    with open(self.box.path(f"engine-{e.name}.{g}.out")) as f:
                        for line in f:
                            fields = line.split()
                            if len(fields) == 4 and fields[1:3] == ["run", str(rid)]:
                                said = fields[3]
                except OSError:
                    pass
        return said

    def check_clean_runs(self):
        for rid, r in sorted(self.runs.items()):
            info = self.m.chains.get(r["chain"])
            if not info or not info["clean"] or r["state"] == "succeeded":
                continue
            started, finished = self.real_span(r)
            start = min(self.first_seen.get(rid, 0), started or 1e18) - 2
            end = (finished or time.time()) + 2
            near = [e[2] for e in self.events if e[3] and e[0] <= end and (
                time.time() if e[1] is None else e[1]) >= start]
            if "inprocess-cancel" in self.avoid and r["state"] == "cancelled" and r[
                    "engine"].startswith("hourglass-run-"):
                continue  # known: run --wait's engine cancels the others' runs it started
            if not near:
                raise Failure("7 an undisturbed run of a chain whose tasks all succeed succeeds",
                              f"run {rid} of {r['chain']} ({r['trigger']}) ended {r['state']}; "
                              f"no fault, stop or removal between {start:.1f} and {end:.1f} "
                              f"(real time; recent: {self.recent()}); "
                              f"`hourglass logs {rid}` in {self.box.root}")
        self.checks += 1

    def check_created(self):
        """Invariant 11: a run a command said it made is there until its chain goes."""
        for rid, chain in sorted(self.created.items()):
            info = self.m.chains.get(chain)
            if rid in self.runs or chain in self.m.removed or not info or info["selfdestruct"]:
                continue
            raise Failure("11 a run whose id a command printed is listed until its chain is "
                          "removed", f"run {rid} of {chain} is not in `runs --json` (ids "
                          f"{min(self.runs, default=None)}..{max(self.runs, default=None)}); "
                          f"recent: {self.recent(20)}")
        self.checks += 1

    def check_leftovers(self, final):
        def leftovers():
            found = {}
            for pid, (env, argv) in self.box.marked_processes(self.marker).items():
                rid = env.get("HOURGLASS_RUN_ID", "?")
                run = self.runs.get(int(rid)) if rid.isdigit() else None
                if final or run is None or run["state"] in (
                        "succeeded", "failed", "cancelled", "timed_out"):
                    found[pid] = (rid, run and run["state"], argv[:160])
            return found
        if poll(lambda: not leftovers(), LEFTOVER_GRACE, 1) is False:
            raise Failure("5 no process of a task outlives its run",
                          f"{LEFTOVER_GRACE} s after the runs ended: {leftovers()}")
        self.checks += 1

    def finish(self):
        self.settle()
        self.check()
        for e in self.box.engines:
            if e.alive():
                e.restart_at = None
                self.term_engine(e)
        self.tick()
        self.check_leftovers(final=True)
        self.check_cgroups()

    def check_cgroups(self):
        """Invariant 10: an engine that tracks tasks by cgroup (hourglass-tasks-PID) leaves none
        behind once it and its successors have ended: the next engine reaps a dead one's."""
        ours = {p.pid for p in self.box.children} | {pid for e in self.box.engines
                                                      for pid in e.pids}
        leaked = {}
        for path in glob.glob("/sys/fs/cgroup/hourglass-tasks-*") + glob.glob(
                "/sys/fs/cgroup/*/hourglass-tasks-*"):
            pid = path.rsplit("-", 1)[1]
            if pid.isdigit() and int(pid) in ours:
                try:
                    with open(path + "/cgroup.procs") as f:
                        leaked[path] = f.read().split()
                except OSError:
                    leaked[path] = "?"
        self.checks += 1
        if leaked and "cgroup-leak" not in self.avoid:
            raise Failure("10 no cgroup outlives the engines", f"left behind (path: processes "
                          f"in it): {leaked}; events: {self.recent(20)}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="invariants:" + INVARIANTS + "\n\nfaults (each can be "
                                "left out with --avoid):" + FAULTS)
    p.add_argument("--hourglass", required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    p.add_argument("--engines", type=int, default=None)
    p.add_argument("--private-pg", action="store_true",
                   help="postgresql: initdb a private server in the temp dir (root only)")
    p.add_argument("--avoid", default="", help="comma-separated: " + ",".join(AVOIDABLE))
    p.add_argument("--keep", action="store_true", help="keep the temp dir after a pass")
    a = p.parse_args()
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1, 2**31)
    print(f"torture: seed={a.seed}", flush=True)
    a.engines = a.engines or (1 if a.backend == "sqlite" else 2)
    if a.backend == "sqlite" and a.engines != 1:
        p.error("SQLite keeps one engine per store: --engines 1")
    if a.backend == "postgresql" and not a.private_pg \
            and not os.environ.get("HOURGLASS_TEST_PG_URL"):
        if os.environ.get("HOURGLASS_TEST_REQUIRE_SERVERS") == "1":
            print("torture: FAILED: HOURGLASS_TEST_REQUIRE_SERVERS=1 but HOURGLASS_TEST_PG_URL "
                  "is unset")
            return 1
        print("torture: SKIPPED: set HOURGLASS_TEST_PG_URL (or run --private-pg as root)")
        return SKIP
    replay = (f"/usr/bin/python3 {os.path.abspath(__file__)} --hourglass "
              f"{os.path.abspath(a.hourglass)} --seed {a.seed} --seconds {a.seconds:g} --backend "
              f"{a.backend} --engines {a.engines}" + (" --private-pg" if a.private_pg else "")
              + (f" --avoid {a.avoid}" if a.avoid else ""))
    deadline = time.monotonic() + a.seconds
    avoid = set(filter(None, a.avoid.split(",")))
    box = Sandbox(os.path.abspath(a.hourglass), a.backend, a.seed, a.private_pg, a.keep, avoid)
    d = Driver(a, box, avoid)
    d.marker = d.m.marker
    failed = True
    try:
        if "create-race" in d.avoid or d.rnd.random() < 0.7:
            box.hg("project", "list")  # else the first command races the engines to create it
        for i in range(a.engines):
            box.engines.append(Engine(box, f"e{i}", d.lease, d.rnd.choice([2, 4, 8])))
            box.engines[-1].start()
        d.m.seed_definitions()
        while time.monotonic() < deadline - 40:
            d.chaos(min(deadline - 40, time.monotonic() + d.rnd.uniform(15, 35)))
            d.settle()
            d.check()
        d.finish()
        failed = False
        print(f"torture: seed={a.seed} ops={d.ops} faults={d.faults} checks={d.checks} "
              f"runs={len(d.runs)} attempts={sum(1 for f in d.ledger() if f[0] == 'S')} passed"
              f" ({', '.join(f'{k} {n}' for k, n in sorted(d.fault_counts.items()))})")
        return 0
    except Failure as f:
        message = (f"torture: FAILED seed={a.seed} invariant {f.invariant} (after ops={d.ops} "
                   f"faults={d.faults} checks={d.checks})\n  evidence: {f.evidence}"
                   f"\n  temp dir (kept): {box.root}\n  replay: {replay}")
        print(message, flush=True)
        box.note(message)
        return 1
    except BaseException:
        print(f"torture: FAILED seed={a.seed} (driver error below)\n  temp dir (kept): "
              f"{box.root}\n  replay: {replay}", flush=True)
        raise
    finally:
        box.close(failed, d.m.marker)


if __name__ == "__main__":
    sys.exit(main())
