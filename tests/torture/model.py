"""What the torture driver believes the store holds, and the random definition edits.

Every task is a shell task that appends `S run task attempt pid` to the ledger when it
starts and `E run task attempt pid rc` when it ends, writes its pid to the pid dir, sleeps
0-2 s and exits with the code chosen for it. Its environment (--env) and its script carry
the run's marker, so /proc finds every process it left. A chain is "clean" when all its
tasks succeed and it has no timeout: an undisturbed run of it must succeed (invariant 7)."""

import os
from datetime import datetime, timedelta, timezone


class Model:
    def __init__(self, rnd, box, avoid):
        self.rnd, self.box, self.avoid = rnd, box, avoid
        self.marker = f"hgtorture{os.getpid()}s{box.seed}"
        self.projects = []
        self.chains = {}       # path -> {clean, selfdestruct, tasks: [name], deps: set}
        self.removed = set()   # chain paths removed by the driver
        self.n = 0

    def name(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def pick_chain(self, clean=False, scheduled=False):
        paths = sorted(p for p, c in self.chains.items() if c["tasks"] and (
            not clean or c["clean"]) and (not scheduled or c["scheduled"]))
        return self.rnd.choice(paths) if paths else None

    def seed_definitions(self):
        for _ in range(2):
            self.op_project()
        for _ in range(3):
            self.op_chain(clean=True)

    # -- projects and chains ---------------------------------------------------------------
    def op_project(self):
        name = self.name("p")
        if self.box.hg("project", "add", name)[0] == 0:
            self.projects.append(name)
        return True

    def op_rm_project(self):
        if len(self.projects) < 2:
            return False
        project = self.rnd.choice(self.projects)
        if self.box.hg("project", "rm", project, "--force")[0] == 0:
            self.projects.remove(project)
            for path in [p for p in self.chains if p.startswith(project + "/")]:
                del self.chains[path]
                self.removed.add(path)
        return True

    def op_chain(self, clean=None):
        if not self.projects:
            return False
        path = f"{self.rnd.choice(self.projects)}/{self.name('c')}"
        clean = self.rnd.random() < 0.5 if clean is None else clean
        selfdestruct = clean and "selfdestruct" not in self.avoid and self.rnd.random() < 0.15
        args = ["chain", "add", path]
        if self.rnd.random() < 0.5:
            args += ["--max-instances", self.rnd.randint(1, 3)]
        if not clean and self.rnd.random() < 0.2:
            args += ["--timeout", self.rnd.randint(2, 6)]
        if self.rnd.random() < 0.1:
            args += ["--exclusive"]
        if selfdestruct:
            args += ["--self-destruct"]
        if self.rnd.random() < 0.3:
            args += ["--on-failure", "continue"]
        if self.rnd.random() < 0.3:
            args += ["--priority", self.rnd.choice(["highest", "high", "medium", "low", "lowest"])]
        if self.box.hg(*args)[0] != 0:
            return True
        self.chains[path] = dict(clean=clean, selfdestruct=selfdestruct, tasks=[], deps=set(),
                                 scheduled=False)
        for _ in range(self.rnd.randint(1, 3)):
            self.op_task(path)
        return True

    def rm_chain(self, path):
        rc = self.box.hg("chain", "rm", path)[0]
        if rc == 0:
            self.chains.pop(path, None)
            self.removed.add(path)
        return rc

    def op_rm_chain(self):
        if len(self.chains) < 3:
            return False
        self.rm_chain(self.rnd.choice(sorted(self.chains)))
        return True

    # -- tasks and dependencies ------------------------------------------------------------
    def script(self, seconds, rc, setsid):
        ids = "$HOURGLASS_RUN_ID $HOURGLASS_TASK $HOURGLASS_ATTEMPT"
        pid_file = self.box.path("pids") + "/$HOURGLASS_RUN_ID.$HOURGLASS_TASK.$HOURGLASS_ATTEMPT"
        text = f'echo "S {ids} $$" >> {self.box.ledger}; echo $$ > {pid_file}; '
        if setsid:  # a child in a session of its own: it must not outlive the task either
            text += f"setsid sh -c 'echo $$ > {pid_file}.setsid; sleep 60 # {self.marker}' & "
        text += (f'sleep {seconds}; echo "E {ids} $$ {rc}" >> {self.box.ledger}; exit {rc} '
                 f'# {self.marker}')
        return text

    def op_task(self, path=None):
        path = path or (self.rnd.choice(sorted(self.chains)) if self.chains else None)
        if not path:
            return False
        chain = self.chains[path]
        name = self.name("t")
        seconds = round(self.rnd.uniform(0, 2), 1)
        rc = 0 if chain["clean"] or self.rnd.random() < 0.7 else self.rnd.choice([1, 3])
        setsid = "setsid" not in self.avoid and self.rnd.random() < 0.03
        args = ["task", "add", path, name, "--kind", "shell", "--command",
                self.script(seconds, rc, setsid), "--env", f"HGT_MARKER={self.marker}"]
        if chain["tasks"] and self.rnd.random() < 0.5:
            up = self.rnd.choice(chain["tasks"])
            when = "success" if chain["clean"] else self.rnd.choice(
                ["success", "completion", "failure"])
            args += ["--after", f"{up}:{when}"]
        retries = self.rnd.choice([0, 0, 1, 2])
        if retries:
            args += ["--retries", retries, "--retry-delay", 1]
        if not chain["clean"] and self.rnd.random() < 0.15:
            args += ["--timeout", 1]
        if not chain["clean"] and self.rnd.random() < 0.1:
            args += ["--ignore-error"]
        if self.box.hg(*args)[0] == 0:
            chain["tasks"].append(name)
        return True

    def op_rm_task(self):
        path = self.pick_chain()
        if not path:
            return False
        task = self.rnd.choice(self.chains[path]["tasks"])
        if self.box.hg("task", "rm", path, task)[0] == 0:
            self.chains[path]["tasks"].remove(task)
        return True

    def op_dep(self):
        paths = [p for p, c in sorted(self.chains.items()) if len(c["tasks"]) >= 2]
        if not paths:
            return False
        path = self.rnd.choice(paths)
        chain = self.chains[path]
        task, up = self.rnd.sample(chain["tasks"], 2)
        if chain["deps"] and self.rnd.random() < 0.4:
            task, up = self.rnd.choice(sorted(chain["deps"]))
            if self.box.hg("dep", "rm", path, task, up)[0] == 0:
                chain["deps"].discard((task, up))
            return True
        when = "success" if chain["clean"] else self.rnd.choice(["success", "completion",
                                                                 "failure"])
        rc = self.box.hg("dep", "add", path, task, up, "--when", when)[0]
        if rc not in (0, 2):
            return True
        if rc == 0:
            chain["deps"].add((task, up))
        return True

    # -- schedules -------------------------------------------------------------------------
    def op_schedule(self):
        path = self.pick_chain()
        if not path:
            return False
        kind = self.rnd.random()
        if kind < 0.6:
            args = [f"*/{self.rnd.randint(2, 6)} * * * * *", "--dialect", "seconds"]
        elif kind < 0.75:
            args = [f"@every {self.rnd.randint(2, 6)}s"]
        else:
            at = datetime.fromtimestamp(self.box.host_now(), timezone.utc) + timedelta(
                seconds=self.rnd.randint(2, 12))  # by the host's clock, which may be stepped
            args = [at.strftime("%Y-%m-%dT%H:%M:%SZ")]
        if self.rnd.random() < 0.3:
            args += ["--misfire", self.rnd.choice(["skip", "once", "all"])]
        if self.box.hg("schedule", "add", path, *args)[0] == 0:
            self.chains[path]["scheduled"] = True
        return True

    def op_rm_schedule(self):
        schedules = self.box.hg_json("schedule", "list") or []
        if not schedules:
            return False
        self.box.hg("schedule", "rm", self.rnd.choice(schedules)["id"])
        return True

    def all_unscheduled(self):
        for chain in self.chains.values():
            chain["scheduled"] = False
