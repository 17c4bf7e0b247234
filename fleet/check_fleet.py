#!/usr/bin/env python3
"""The fleet check of the test command (tools/check-fleet): the Spark job gives the same answer as one machine.

1. Generates a fleet (fleet/make_fleet.py: 300 traces of three app versions, generated sessions and the
   mistake scenarios, 9 damaged on purpose: truncated, a byte flipped, cut inside the header, empty, not a
   trace).
2. Runs the job (fleet/lifetrace_fleet.py --master local[2]) over a glob of them, as a user would.
3. Audits the same files with `lifetrace audit --jobs 2 --format ndjson` and computes the aggregates from its
   lines here, independently of the job's code.
4. Reads the job's Parquet tables with pyarrow and checks: the aggregates are equal row for row; every trace
   has one row in traces/; the findings are the same (path, rule, event); every damaged trace, and exactly the
   traces the one-machine audit reports as damaged, has its input problems in input_problems/.
5. Runs the job again through Spark's binaryFile staging (--stage) with a binary (named by a bare relative name)
   that is killed by SIGSEGV on one trace, in batches of 3: that trace is an input problem naming the signal, and no other trace is lost.
6. Checks the errors for a missing binary and a missing Java runtime, and --help.

Prints one line; exits 1 with the differences on failure.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_fleet  # noqa: E402

JOB = os.path.join(HERE, "lifetrace_fleet.py")
APP_VERSION = re.compile(r"(?:^|/)app_version=([^/]+)/")
SERIAL = re.compile(r"#[0-9]+$")


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def run_job(arguments, env=None, cwd=None):
    return subprocess.run([sys.executable, JOB, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, cwd=cwd, text=True)


def reference(binary, paths):
    """Aggregates, findings, trace paths and damaged paths from `lifetrace audit --jobs 2 --format ndjson`."""
    result = subprocess.run([binary, "audit", "--jobs", "2", "--format", "ndjson", *paths],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    expect(result.returncode in (0, 1, 2), f"lifetrace audit exited with {result.returncode}")
    sessions, groups, findings, traces, problems = {}, {}, [], [], []
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if record["type"] == "summary":
            continue
        trace = record["trace"]
        match = APP_VERSION.search(trace["path"])
        version = trace.get("app_version") or (match.group(1) if match else None)
        if record["type"] == "trace":
            traces.append(trace["path"])
            if record["events"] > 0:
                sessions[version] = sessions.get(version, 0) + 1
        elif record["type"] == "input_problem":
            problems.append(trace["path"])
        elif record["type"] == "finding":
            controller = record["controller"]
            key = (record["rule"], SERIAL.sub("", controller) if controller is not None else None, version)
            wall = record.get("unix_ns")
            group = groups.setdefault(key, {"paths": set(), "findings": 0, "walls": []})
            group["paths"].add(trace["path"])
            group["findings"] += 1
            if wall is not None:
                group["walls"].append(wall)
            findings.append((trace["path"], record["rule"], record["event"]))
    aggregates = set()
    for (rule, controller_type, version), group in groups.items():
        affected = len(group["paths"])
        aggregates.add((rule, controller_type, version, affected, sessions[version], affected / sessions[version],
                        group["findings"], min(group["walls"], default=None), max(group["walls"], default=None)))
    return aggregates, sorted(findings), traces, problems


def read_table(directory, name):
    import pyarrow.parquet as parquet
    return parquet.read_table(os.path.join(directory, name)).to_pylist()


def check_equal(binary, manifest, output):
    paths = manifest["traces"]
    aggregates, findings, traces, problems = reference(binary, paths)
    rows = read_table(output, "aggregates")
    got = {(r["rule"], r["controller_type"], r["app_version"], r["sessions_affected"], r["sessions"],
            r["share_of_sessions"], r["findings"], r["first_seen_unix_ns"], r["last_seen_unix_ns"]) for r in rows}
    expect(len(rows) == len(got), f"aggregates/ has {len(rows) - len(got)} duplicate rows")
    expect(all(r["first_seen_unix_ns"] is not None for r in rows),
           "an aggregate without first_seen_unix_ns (simulated traces have a wall-clock anchor)")
    expect(got == aggregates, "aggregates differ from lifetrace audit --jobs 2:\n  only in the job: "
           f"{sorted(got - aggregates, key=str)[:5]}\n  only in the audit: {sorted(aggregates - got, key=str)[:5]}")
    job_traces = [r["path"] for r in read_table(output, "traces")]
    expect(sorted(job_traces) == sorted(paths),
           f"traces/ has {len(job_traces)} rows for {len(paths)} traces "
           f"(missing: {sorted(set(paths) - set(job_traces))[:3]})")
    expect(sorted(traces) == sorted(paths), "lifetrace audit did not report every trace once")
    job_findings = sorted((r["path"], r["rule"], r["event"]) for r in read_table(output, "findings"))
    expect(job_findings == findings, f"findings/ has {len(job_findings)} rows, lifetrace audit {len(findings)}")
    job_problems = [r["path"] for r in read_table(output, "input_problems")]
    expect(sorted(job_problems) == sorted(problems),
           f"input_problems/ has {len(job_problems)} rows, lifetrace audit {len(problems)}")
    unreported = set(manifest["damaged"]) - set(job_problems)
    expect(not unreported, f"damaged traces without an input problem: {sorted(unreported)}")
    summary = json.load(open(os.path.join(output, "summary.json"), encoding="utf-8"))
    expect(summary["complete"] and summary["traces"] == len(paths), f"summary.json: {summary}")
    return len(rows), len(findings), len(set(job_problems))


def check_crash(binary, manifest, work):
    """A trace on which the binary dies is an input problem; the other traces of its batch are still audited."""
    small = os.path.join(work, "small")
    os.makedirs(small)
    chosen = [p for p in manifest["traces"] if p not in manifest["damaged"]][:6]
    for path in chosen:
        shutil.copy(path, small)
    shutil.copy(chosen[0], os.path.join(small, "crash-me.lifetrace"))
    wrapper = os.path.join(work, "lifetrace")
    with open(wrapper, "w", encoding="utf-8") as handle:
        handle.write("#!/bin/sh\n# dies by SIGSEGV when a trace named crash-me is among its arguments\n"
                     'for a in "$@"; do case "$a" in *crash-me*) kill -SEGV $$;; esac; done\n'
                     f'exec "{os.path.abspath(binary)}" "$@"\n')
    os.chmod(wrapper, 0o755)
    output = os.path.join(work, "crash-out")
    # The binary named by a bare relative name, as spark-submit --files leaves it in the driver's directory.
    result = run_job(["--master", "local[2]", "--binary", os.path.basename(wrapper), "--stage", "--batch", "3",
                      "--quiet", "-o", output, small], cwd=work)
    expect(result.returncode == 0, f"the job with a crashing binary failed:\n{result.stderr[-2000:]}")
    rows = {os.path.basename(r["path"]): r for r in read_table(output, "traces")}
    expect(len(rows) == 7, f"traces/ has {len(rows)} rows for 7 traces: {sorted(rows)}")
    expect(all(r["path"].startswith("file:") for r in rows.values()), "staged traces keep their own path")
    problems = read_table(output, "input_problems")
    expect([os.path.basename(r["path"]) for r in problems] == ["crash-me.lifetrace"],
           f"input problems: {[(r['path'], r['message']) for r in problems]}")
    expect("killed by signal 11" in problems[0]["message"], f"the problem does not name the signal: "
           f"{problems[0]['message']}")
    complete = [name for name, r in rows.items() if r["complete"]]
    expect(len(complete) == 6, f"complete traces: {complete}")


def check_errors(binary, work):
    result = run_job(["--help"])
    expect(result.returncode == 0 and "usage: lifetrace-fleet" in result.stdout, "--help")
    missing = os.path.join(work, "no-such-lifetrace")
    result = run_job(["--binary", missing, "-o", os.path.join(work, "x"), work])
    expect(result.returncode == 2 and f"--binary {missing}: no such file" in result.stderr,
           f"missing binary: {result.returncode} {result.stderr.strip()}")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.join(work, "empty-path")
    result = run_job(["--binary", binary, "-o", os.path.join(work, "x"), work], env=env)
    expect(result.returncode == 2 and "no Java runtime" in result.stderr,
           f"missing Java: {result.returncode} {result.stderr.strip()}")
    expect(not os.path.exists(os.path.join(work, "x")), "a failed start left its output directory")


def main():
    binary = os.environ.get("LIFETRACE", os.path.join(REPOSITORY, ".build", "debug", "lifetrace"))
    count = int(os.environ.get("FLEET_TRACES", "300"))
    work = tempfile.mkdtemp(prefix="check-fleet-")
    try:
        fleet = os.path.join(work, "fleet")
        manifest = make_fleet.make(binary, fleet, count, seed=1, damaged=9)
        output = os.path.join(work, "out")
        result = run_job(["--master", "local[2]", "--binary", binary, "--batch", "40", "--quiet", "-o", output,
                          os.path.join(fleet, "**", "*.lifetrace")])
        expect(result.returncode == 0, f"the job failed:\n{result.stderr[-3000:]}")
        groups, findings, damaged = check_equal(binary, manifest, output)
        check_crash(binary, manifest, work)
        check_errors(binary, work)
    except CheckFailed as failure:
        print(f"tools/check-fleet: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"tools/check-fleet: the Spark job (local[2]) over {count} traces equals lifetrace audit --jobs 2: "
          f"{groups} aggregate rows, {findings} findings, {damaged} damaged traces counted ({len(manifest['damaged'])}"
          " damaged on purpose); a crashing trace is counted, none lost")
    return 0


if __name__ == "__main__":
    sys.exit(main())
