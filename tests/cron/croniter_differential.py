#!/usr/bin/python3
"""Compares Hourglass's unix and seconds cron dialects with python3-croniter.

croniter walks the calendar in naive local time; the mapping of those wall-clock times to
instants is done here with zoneinfo, following Hourglass's documented DST policy (cronie's):
  - a time in a spring-forward gap fires once, at the first instant after the gap;
  - in a fall-back overlap, a schedule whose hour field is '*' or a step fires in both
    hours, any other fires once, in the first.
Cronie's day rule is passed to croniter explicitly: the day fields are ANDed when either
starts with '*', else ORed.

Where the two disagree, a third opinion decides: a brute-force matcher that checks every
wall-clock second (or minute) in a window around the disputed instant. A disagreement is a
croniter error only when the brute force confirms Hourglass (croniter 1.3.5, for instance,
skips the 1st of the month after February for '*/15' in day-of-month); otherwise it fails.

Each generated expression is evaluated in one of six zones (round robin) for one year from
a start time (often just before a DST change), capped at MAX_FIRES fire times so dense
expressions stay cheap.
"""
import argparse
import multiprocessing
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from croniter import croniter

ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo",
         "Asia/Kolkata", "UTC"]
MAX_FIRES = 150
YEAR = 366 * 86400


def pick(rng, low, high, names=None, sparse=True):
    """One cron field in unix syntax, leaning towards sparse choices."""
    kind = rng.random()
    span = high - low
    if kind < (0.25 if sparse else 0.1):
        return str(rng.randint(low, high))
    if kind < 0.40:
        values = sorted(rng.sample(range(low, high + 1), rng.randint(2, min(4, span + 1))))
        return ",".join(str(v) for v in values)
    if kind < 0.55:
        a = rng.randint(low, high - 1)
        b = rng.randint(a + 1, high)
        return f"{a}-{b}"
    if kind < 0.70:
        return f"*/{rng.randint(2, max(2, span // 2))}"
    if kind < 0.80:
        a = rng.randint(low, high - 1)
        b = rng.randint(a + 1, high)
        return f"{a}-{b}/{rng.randint(2, max(2, (b - a) or 2))}"
    if names and kind < 0.88:
        a = rng.randint(0, len(names) - 2)
        b = rng.randint(a + 1, len(names) - 1)
        return names[a] if rng.random() < 0.5 else f"{names[a]}-{names[b]}"
    return "*"


def generate(rng, seconds):
    months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    minute = pick(rng, 0, 59)
    hour = pick(rng, 0, 23, sparse=False)
    dom = pick(rng, 1, 31) if rng.random() < 0.35 else "*"
    month = pick(rng, 1, 12, months) if rng.random() < 0.3 else "*"
    dow = pick(rng, 0, 7, days) if rng.random() < 0.35 else "*"
    fields = [minute, hour, dom, month, dow]
    if seconds:
        second = rng.choice(["0", str(rng.randint(0, 59)), f"*/{rng.randint(10, 30)}",
                             f"{rng.randint(0, 29)},{rng.randint(30, 59)}"])
        fields.insert(0, second)
    return " ".join(fields)


def transitions(zone, year):
    """UTC instants in `year` where the zone's offset changes (hour resolution, then refined)."""
    found = []
    t = datetime(year, 1, 1, tzinfo=timezone.utc)
    end = datetime(year + 1, 1, 1, tzinfo=timezone.utc)
    previous = t.astimezone(zone).utcoffset()
    while t < end:
        t2 = t + timedelta(hours=1)
        offset = t2.astimezone(zone).utcoffset()
        if offset != previous:
            found.append(t2)
        previous = offset
        t = t2
    return found


def gap_end(zone, naive):
    """First instant after the gap that swallows the naive local time."""
    hi = int(naive.replace(tzinfo=zone, fold=0).timestamp())
    lo = int(naive.replace(tzinfo=zone, fold=1).timestamp())
    lo, hi = min(lo, hi), max(lo, hi)
    off_hi = datetime.fromtimestamp(hi, zone).utcoffset()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if datetime.fromtimestamp(mid, zone).utcoffset() == off_hi:
            hi = mid
        else:
            lo = mid
    return hi


def instants(zone, naive, repeats):
    first = naive.replace(tzinfo=zone, fold=0)
    second = naive.replace(tzinfo=zone, fold=1)
    exists = first.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None) == naive
    if not exists:
        return [gap_end(zone, naive)]
    a, b = int(first.timestamp()), int(second.timestamp())
    if a != b and repeats:
        return sorted({a, b})
    return [min(a, b)] if a != b else [a]


def reference(expression, seconds, zone_name, start, until):
    zone = ZoneInfo(zone_name)
    fields = expression.split()
    if seconds:
        fields = fields[1:] + fields[:1]  # croniter puts seconds last
    hour_text = fields[1]
    dom_text, dow_text = fields[2], fields[4]
    repeats = hour_text.startswith("*") or "/" in hour_text
    day_or = not (dom_text.startswith("*") or dow_text.startswith("*"))
    naive_start = datetime.fromtimestamp(start, zone).replace(tzinfo=None) - timedelta(hours=3)
    it = croniter(" ".join(fields), naive_start, ret_type=datetime, day_or=day_or)
    found = set()
    cutoff = until
    naive_until = datetime.fromtimestamp(until, zone).replace(tzinfo=None) + timedelta(hours=3)
    candidates = 0
    while True:
        try:
            naive = it.get_next(datetime)
        except Exception:  # croniter gives up when it finds nothing more ("failed to find next date")
            break
        if naive > naive_until:
            break
        candidates += 1
        for instant in instants(zone, naive, repeats):
            if start < instant <= until:
                found.add(instant)
        if candidates > MAX_FIRES + 10:
            # Stopped early: only trust instants well before the last wall-clock time seen.
            cutoff = min(until, int(naive.replace(tzinfo=zone).timestamp()) - 4 * 3600)
            break
    return sorted(t for t in found if t <= cutoff), cutoff


def field_values(text, low, high, names):
    """cronie's reading of one field: the set of values it allows."""
    values = set()
    for item in text.lower().split(","):
        step = 1
        if "/" in item:
            item, step_text = item.split("/")
            step = int(step_text)
        if item == "*":
            first, last = low, high
        elif "-" in item:
            a, b = item.split("-")
            first = names.index(a) if a in names else int(a)
            last = names.index(b) if b in names else int(b)
        else:
            first = last = names.index(item) if item in names else int(item)
        values.update(range(first, last + 1, step))
    return values


class BruteForce:
    MONTHS = ["", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    def __init__(self, expression, seconds):
        fields = expression.split()
        if not seconds:
            fields.insert(0, "0")
        self.seconds = field_values(fields[0], 0, 59, [])
        self.minutes = field_values(fields[1], 0, 59, [])
        self.hours = field_values(fields[2], 0, 23, [])
        self.doms = field_values(fields[3], 1, 31, [])
        self.months = field_values(fields[4], 1, 12, self.MONTHS)
        self.dows = {v % 7 for v in field_values(fields[5], 0, 7, self.DAYS)}
        self.both = fields[3].startswith("*") or fields[5].startswith("*")
        self.repeats = fields[2].startswith("*") or "/" in fields[2]
        self.step = 1 if seconds else 60

    def never_fires(self):
        """True when no calendar date matches: only a day-of-month that no chosen month has."""
        if not self.both or self.dows != set(range(7)):
            return False
        longest = {2: 29, 4: 30, 6: 30, 9: 30, 11: 30}
        return all(day > longest.get(month, 31) for month in self.months for day in self.doms)

    def matches(self, naive):
        dom = naive.day in self.doms
        dow = (naive.isoweekday() % 7) in self.dows
        day = (dom and dow) if self.both else (dom or dow)
        return (day and naive.month in self.months and naive.hour in self.hours
                and naive.minute in self.minutes and naive.second in self.seconds)

    def instants_near(self, zone, instant):
        """Every fire instant whose wall-clock time lies within 3 hours of `instant`."""
        centre = datetime.fromtimestamp(instant, zone).replace(tzinfo=None)
        naive = centre - timedelta(hours=3)
        naive -= timedelta(seconds=naive.second % self.step)
        found = set()
        while naive <= centre + timedelta(hours=3):
            if self.matches(naive):
                found.update(instants(zone, naive, self.repeats))
            naive += timedelta(seconds=self.step)
        return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", required=True)
    parser.add_argument("--hourglass", required=True)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    cases = []
    starts = {}
    for zone_name in ZONES:
        changes = transitions(ZoneInfo(zone_name), 2026)
        starts[zone_name] = [int(t.timestamp()) - 2 * 86400 for t in changes]
    while len(cases) < args.count:
        seconds = rng.random() < 0.3
        expression = generate(rng, seconds)
        zone_name = ZONES[len(cases) % len(ZONES)]
        choices = starts[zone_name] + [int(datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp()),
                                       int(datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp())
                                       + rng.randint(0, YEAR)]
        start = rng.choice(choices)
        cases.append(("seconds" if seconds else "unix", zone_name, start, start + YEAR, expression))

    lines = "".join(f"{d}\t{z}\t{s}\t{u}\t{MAX_FIRES + 40}\t{e}\n" for d, z, s, u, e in cases)
    result = subprocess.run([args.batch], input=lines, capture_output=True, text=True, check=True)
    outputs = result.stdout.splitlines()
    if len(outputs) != len(cases):
        print(f"driver answered {len(outputs)} of {len(cases)} queries", file=sys.stderr)
        return 1

    # croniter is slow: compute the references on every core.
    with multiprocessing.Pool() as pool:
        references = pool.starmap(reference, [(e, d == "seconds", z, s, u) for d, z, s, u, e in cases])

    failures = 0
    refused = 0
    croniter_errors = 0
    compared = 0
    fire_times = 0
    for (dialect, zone_name, start, until, expression), output, ref in zip(cases, outputs, references):
        if output.startswith("ERR"):
            # Hourglass refuses an expression that can never fire, naming the field; that is
            # agreement when the calendar agrees and croniter found nothing either.
            if (BruteForce(expression, dialect == "seconds").never_fires() and not ref[0]
                    and "day-of-month" in output):
                refused += 1
                continue
            failures += 1
            print(f"REFUSED {expression!r} ({dialect}): {output}", file=sys.stderr)
            continue
        ours = [int(t) for t in output.split()]
        expected, cutoff = ref
        ours_cut = [t for t in ours if t <= cutoff]
        if len(ours) >= MAX_FIRES + 40 and ours[-1] < cutoff:
            cutoff = ours[-1]
            expected = [t for t in expected if t <= cutoff]
        compared += 1
        fire_times += len(expected)
        if ours_cut != expected:
            oracle = BruteForce(expression, dialect == "seconds")
            zone = ZoneInfo(zone_name)
            disputed = set(expected) ^ set(ours_cut)
            if all((t in ours_cut) == (t in oracle.instants_near(zone, t)) for t in disputed):
                croniter_errors += 1
                continue
            failures += 1
            missing = sorted(set(expected) - set(ours_cut))[:3]
            extra = sorted(set(ours_cut) - set(expected))[:3]
            fmt = lambda ts: [datetime.fromtimestamp(t, ZoneInfo(zone_name)).isoformat() for t in ts]
            print(f"DIFF {expression!r} ({dialect}) in {zone_name} from "
                  f"{datetime.fromtimestamp(start, ZoneInfo(zone_name)).isoformat()}: "
                  f"missing {fmt(missing)} extra {fmt(extra)}", file=sys.stderr)

    # The real command line must print what the engine computes.
    cli_checked = 0
    for index in range(0, len(cases), max(1, len(cases) // 40)):
        dialect, zone_name, start, until, expression = cases[index]
        if outputs[index].startswith("ERR"):
            continue
        iso_from = datetime.fromtimestamp(start, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        run = subprocess.run([args.hourglass, "cron", "next", expression, "--dialect", dialect,
                              "--tz", zone_name, "--from", iso_from, "--count", "5"],
                             capture_output=True, text=True)
        expected = [int(t) for t in outputs[index].split()]
        printed = [int(datetime.fromisoformat(line).timestamp()) for line in run.stdout.split()]
        cli_checked += 1
        # The driver stops a year after the start; the command line does not.
        if run.returncode != 0 or printed[:len(expected[:5])] != expected[:5]:
            failures += 1
            print(f"CLI {expression!r} in {zone_name}: printed {run.stdout.split()} "
                  f"expected {expected[:5]} ({run.stderr.strip()})", file=sys.stderr)

    print(f"croniter differential: {compared} expressions in {len(ZONES)} zones, "
          f"{fire_times} fire times compared, {cli_checked} through the command line; "
          f"{croniter_errors} disagreement(s) were croniter's, confirmed by brute force; "
          f"{refused} never-firing expression(s) rightly refused")
    print(f"{compared + refused + cli_checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
