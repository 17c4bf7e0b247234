#!/usr/bin/env python3
"""The fleet benchmark (not a test): the Spark job against one machine's `lifetrace audit` on the same files.

    .build/venv/bin/python3 fleet/bench_fleet.py [--traces 1000] [--runs 3] [--binary .build/release/lifetrace]

Generates --traces undamaged traces (fleet/make_fleet.py, seed 7), then times, --runs times each after one
discarded warm-up run:
- `lifetrace audit --jobs 1 --format ndjson` and `--jobs 2` over every file (standard output to a file);
- the job (fleet/lifetrace_fleet.py) with --master local[1] and local[2], as a whole process (JVM and Spark
  start-up included) and its own `seconds` (from the session being up to the tables written);
- both again over the first 10 traces, which gives the fixed cost of a job.
Prints a table of the medians, Spark's overhead per trace ((job − audit) ÷ traces, same cores), the marginal
overhead (the same with the 10-trace runs subtracted from both), the fixed cost, and the scaling from one core
to two (time with 1 ÷ time with 2), and the same as JSON on the last line.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_fleet  # noqa: E402

JOB = os.path.join(HERE, "lifetrace_fleet.py")
SMALL = 10  # the traces of the small run, which measures a job's fixed cost


def timed(command, stdout=subprocess.DEVNULL):
    started = time.monotonic()
    result = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - started
    if result.returncode not in (0, 1):
        raise SystemExit(f"bench_fleet: {' '.join(command[:4])} … failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed


def audit_run(binary, jobs, paths, work):
    with open(os.path.join(work, "audit.ndjson"), "w", encoding="utf-8") as out:
        return timed([binary, "audit", "--jobs", str(jobs), "--format", "ndjson", *paths], stdout=out), None


def job_run(binary, cores, paths_file, work):
    output = os.path.join(work, f"out-{cores}")
    shutil.rmtree(output, ignore_errors=True)
    elapsed = timed([sys.executable, JOB, "--master", f"local[{cores}]", "--binary", binary, "--quiet",
                     "-o", output, "--paths-from", paths_file])
    with open(os.path.join(output, "summary.json"), encoding="utf-8") as handle:
        return elapsed, json.load(handle)["seconds"]


def measure(runs, run):
    run()  # warm-up, discarded
    results = [run() for _ in range(runs)]
    wall = statistics.median(r[0] for r in results)
    inner = [r[1] for r in results if r[1] is not None]
    return wall, (statistics.median(inner) if inner else None)


def machine():
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores, {model}, {platform.system()} {platform.release()}, load average {load:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default=os.path.join(REPOSITORY, ".build", "release", "lifetrace"))
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    work = tempfile.mkdtemp(prefix="bench-fleet-")
    try:
        fleet = os.path.join(work, "fleet")
        manifest = make_fleet.make(binary, fleet, arguments.traces, seed=7, damaged=0)
        paths = manifest["traces"]
        events = 0
        figures = {"traces": len(paths), "machine_before": machine()}
        for jobs in (1, 2):
            wall, _ = measure(arguments.runs, lambda: audit_run(binary, jobs, paths, work))
            figures[f"audit_jobs{jobs}_s"] = round(wall, 3)
        with open(os.path.join(work, "audit.ndjson"), encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record["type"] == "trace":
                    events += record["events"]
        figures["events"] = events
        small = paths[:SMALL]
        for name, chosen in (("all", paths), ("small", small)):
            with open(os.path.join(work, f"{name}.txt"), "w", encoding="utf-8") as handle:
                handle.write("\n".join(chosen) + "\n")
        for jobs in (1, 2):
            wall, _ = measure(arguments.runs, lambda: audit_run(binary, jobs, small, work))
            figures[f"audit_jobs{jobs}_small_s"] = round(wall, 3)
        for cores in (1, 2):
            for name in ("all", "small"):
                paths_file = os.path.join(work, f"{name}.txt")
                wall, inner = measure(arguments.runs, lambda: job_run(binary, cores, paths_file, work))
                suffix = "" if name == "all" else "_small"
                figures[f"spark_local{cores}_process{suffix}_s"] = round(wall, 3)
                figures[f"spark_local{cores}_job{suffix}_s"] = round(inner, 3)
        for cores in (1, 2):
            audit = figures[f"audit_jobs{cores}_s"]
            job = figures[f"spark_local{cores}_job_s"]
            figures[f"overhead_ms_per_trace_local{cores}"] = round((job - audit) * 1000 / len(paths), 2)
            # What one more trace costs in the job beyond its audit, the fixed cost of a job taken out.
            marginal = ((job - figures[f"spark_local{cores}_job_small_s"])
                        - (audit - figures[f"audit_jobs{cores}_small_s"])) / (len(paths) - SMALL)
            figures[f"marginal_overhead_ms_per_trace_local{cores}"] = round(marginal * 1000, 3)
            figures[f"fixed_job_s_local{cores}"] = round(
                figures[f"spark_local{cores}_job_small_s"] - figures[f"audit_jobs{cores}_small_s"], 3)
        figures["scaling_audit"] = round(figures["audit_jobs1_s"] / figures["audit_jobs2_s"], 2)
        figures["scaling_spark_job"] = round(figures["spark_local1_job_s"] / figures["spark_local2_job_s"], 2)
        figures["machine_after"] = machine()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    n = figures["traces"]
    print(f"{n} traces, {figures['events']} events; medians of {arguments.runs} runs after a warm-up")
    print(f"{'':34} {'1 core':>10} {'2 cores':>10}")
    print(f"{'lifetrace audit --jobs N (s)':34} {figures['audit_jobs1_s']:>10} {figures['audit_jobs2_s']:>10}")
    print(f"{'Spark local[N], job (s)':34} {figures['spark_local1_job_s']:>10} {figures['spark_local2_job_s']:>10}")
    print(f"{'Spark local[N], process (s)':34} {figures['spark_local1_process_s']:>10} "
          f"{figures['spark_local2_process_s']:>10}")
    print(f"{'traces/s, audit':34} {n / figures['audit_jobs1_s']:>10.1f} {n / figures['audit_jobs2_s']:>10.1f}")
    print(f"{'traces/s, Spark job':34} {n / figures['spark_local1_job_s']:>10.1f} "
          f"{n / figures['spark_local2_job_s']:>10.1f}")
    print(f"{'Spark overhead per trace (ms)':34} {figures['overhead_ms_per_trace_local1']:>10} "
          f"{figures['overhead_ms_per_trace_local2']:>10}")
    print(f"{f'  beyond a job of {SMALL} traces (ms)':34} {figures['marginal_overhead_ms_per_trace_local1']:>10} "
          f"{figures['marginal_overhead_ms_per_trace_local2']:>10}")
    print(f"{'fixed cost of a job (s)':34} {figures['fixed_job_s_local1']:>10} {figures['fixed_job_s_local2']:>10}")
    print(f"scaling 1 → 2 cores: audit {figures['scaling_audit']}, Spark job {figures['scaling_spark_job']}")
    print(f"machine: {figures['machine_before']} (before), load average {figures['machine_after'].rsplit(' ', 1)[1]} after")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
