#!/usr/bin/python3
"""Runs clang-tidy on the product's sources, a dozen at a time.

    scripts/tidy.py BUILD_DIR WORK_DIR SOURCE...

Most of clang-tidy's time on one file goes to parsing and matching the Qt headers it
includes (about 4 of 5 seconds), not to the file itself. So the sources that share a
compile command are checked in batches: one generated file per batch includes a dozen of
them, and its headers are read once. The checks see the same code; a finding names the
source file and line it is in (the header filter covers the sources). A batch that does not
compile cleanly as one (two files define the same helper in their anonymous namespaces, or
one's shadows another's) is halved until it does or a file stands alone, so nothing goes
unchecked and nothing is reported that only the batching made.

Prints clang-tidy's findings (warning and error lines) and exits 0; scripts/lint judges.
WORK_DIR must lie under the source tree, where clang-tidy finds .clang-tidy.
"""

import concurrent.futures
import itertools
import json
import os
import re
import shlex
import subprocess
import sys

BATCH = 12
FINDING = re.compile(r"^(/[^:]+):\d+:\d+: (warning|error): .*\[([^\]]+)\]$")


def compile_commands(build_dir):
    # Without the precompiled header: clang would try to read GCC's .gch files, and each
    # file must include what it uses anyway.
    entries = []
    for entry in json.load(open(os.path.join(build_dir, "compile_commands.json"))):
        entry["command"] = re.sub(r" -Winvalid-pch| -include \S*cmake_pch\.hxx", "", entry["command"])
        # A unity batch of the ci preset (HOURGLASS_UNITY) stands for the sources it includes.
        if re.search(r"/Unity/unity_\d+_cxx\.cxx$", entry["file"]):
            for source in re.findall(r'^#include "(/[^"]+)"$', open(entry["file"]).read(), re.M):
                entries.append(dict(entry, file=source))
        else:
            entries.append(entry)
    return entries


def tidy(directory, arguments, source):
    result = subprocess.run(["clang-tidy", "-quiet", source, "--"] + arguments, cwd=directory,
                            capture_output=True, text=True)
    output = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr).splitlines()
    findings = [line for line in output if FINDING.match(line)]
    # clang-tidy that could not check the file must not read as clean.
    if result.returncode != 0 and not findings:
        findings = ["%s:1:1: error: clang-tidy could not check it: %s [lint]"
                    % (source, " / ".join(output[-3:]) or "exit %d" % result.returncode)]
    return findings


def main():
    build_dir, work_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    sources = [os.path.abspath(s) for s in sys.argv[3:]]
    wanted = set(sources)
    entries = [e for e in compile_commands(build_dir) if os.path.abspath(e["file"]) in wanted]
    missing = sorted(wanted - {os.path.abspath(e["file"]) for e in entries})
    if missing:
        for source in missing:
            print("%s:1:1: error: no compile command in %s/compile_commands.json [lint]" % (source, build_dir))
        return

    # Batches of files with the same command (the same target: same flags, defines, paths).
    by_command = {}
    for entry in entries:
        arguments = shlex.split(re.sub(r" -o \S+ -c \S+$", "", entry["command"]))[1:]
        by_command.setdefault((entry["directory"], tuple(arguments)), []).append(
            os.path.abspath(entry["file"]))
    counter = itertools.count()

    def check(directory, arguments, members):
        if len(members) == 1:
            return tidy(directory, list(arguments), members[0])
        batch = os.path.join(work_dir, "batch%03d.cpp" % next(counter))
        with open(batch, "w") as out:
            out.writelines('#include "%s"\n' % f for f in members)
        return tidy(directory, list(arguments), batch)

    findings, batches, splits = set(), 0, 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        jobs = {}
        for (directory, arguments), files in by_command.items():
            files.sort()
            for start in range(0, len(files), BATCH):
                members = files[start:start + BATCH]
                jobs[pool.submit(check, directory, arguments, members)] = (directory, arguments, members)
                batches += 1
        while jobs:
            done, _ = concurrent.futures.wait(jobs, return_when=concurrent.futures.FIRST_COMPLETED)
            for job in done:
                directory, arguments, members = jobs.pop(job)
                lines = job.result()
                # A compiler diagnostic may come from the batching itself (a file's helper
                # shadows another file's, or is defined twice): the batch is halved until the
                # diagnostic goes or a file stands alone.
                if len(members) > 1 and any(
                        FINDING.match(l).group(3).startswith("clang-diagnostic-") for l in lines):
                    half = len(members) // 2
                    for part in (members[:half], members[half:]):
                        jobs[pool.submit(check, directory, arguments, part)] = (directory, arguments, part)
                    splits += 1
                    continue
                # The batch file's own lines are its #includes of .cpp files, by design.
                findings.update(l for l in lines if not l.startswith(work_dir + "/"))
    for line in sorted(findings):
        print(line)
    print("tidy: %d files in %d batches, %d of them halved" % (len(entries), batches, splits),
          file=sys.stderr)


if __name__ == "__main__":
    main()
