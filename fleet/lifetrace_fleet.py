#!/usr/bin/env python3
"""Audit a fleet of Lifetrace traces on Apache Spark.

The driver lists the traces (local paths, globs, directories, or a file of paths), Spark distributes the
paths, and each partition runs the shipped `lifetrace` binary over its traces in batches
(`lifetrace audit --format ndjson`, so process start-up is paid once per batch). The NDJSON records
(schema `lifetrace.finding/1`, docs/NDJSON.md) are read into a DataFrame with the declared schema below,
and four Parquet tables are written under OUTPUT (docs/FLEET.md gives every column):

    findings/        one row per finding
    traces/          one row per trace: its identity, events read, findings, complete
    aggregates/      by rule x controller type x app version: sessions affected, findings, share, first/last seen
    input_problems/  one row per input problem (a damaged or unreadable trace), counted apart from findings

plus OUTPUT/summary.json with the run's counts. Run `python3 fleet/lifetrace_fleet.py --help`.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SCHEMA_ID = "lifetrace.finding/1"
PROG = "lifetrace-fleet"
# A Hive-style path segment naming the app version (`.../app_version=2.3.1/...`): the app version of a trace
# whose header has none, as object-storage layouts partition uploads.
APP_VERSION_SEGMENT = re.compile(r"(?:^|/)app_version=([^/]+)/")
# A controller as the findings name it: its type, then `#` and the trace's serial number.
CONTROLLER_SERIAL = re.compile(r"#[0-9]+$")
MARKER = "summary.json"
EXIT_USAGE = 2


class FleetError(Exception):
    """A problem with the job's arguments or environment: reported as one line, exit 2."""


def ndjson_schema():
    """The declared schema of a `lifetrace.finding/1` line (every line type; a member a type lacks is null)."""
    from pyspark.sql.types import (ArrayType, BooleanType, LongType, StringType, StructField, StructType)

    def s(name):
        return StructField(name, StringType(), True)

    def n(name):
        return StructField(name, LongType(), True)

    trace = StructType([s("path"), s("trace_id"), s("producer"), s("app_version"), s("os_version")])
    source = StructType([s("file"), n("line")])
    related = StructType([n("event"), n("t_ns"), s("time"), n("line"), s("message")])
    return StructType([
        s("schema"), s("type"), StructField("trace", trace, True),
        # finding
        s("rule"), s("severity"), s("verdict"), s("controller"), s("callback"), n("event"), n("t_ns"), n("unix_ns"),
        s("time"),
        n("line"), StructField("source", source, True), s("message"),
        StructField("related", ArrayType(related, True), True),
        # input_problem
        n("byte_offset"),
        # trace
        n("events"), n("findings"), StructField("complete", BooleanType(), True),
    ])


# ----------------------------------------------------------------------------------------------------------
# Listing the inputs (driver)

def has_scheme(path):
    return re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", path) is not None


def local_path(path):
    return path[len("file://"):] if path.startswith("file://") else path


def list_inputs(patterns, paths_from):
    """Every trace named by `patterns` (a file, a directory searched for *.lifetrace, or a glob; `**` recurses)
    and by the lines of `paths_from`, as absolute local paths in the order given, without duplicates; paths
    with another scheme (hdfs://, s3a://, ...) are returned apart, for staging. Raises FleetError for a name
    that matches nothing."""
    named = list(patterns)
    if paths_from:
        try:
            with open(paths_from, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    entry = line.strip()
                    if entry and not entry.startswith("#"):
                        named.append(entry)
        except OSError as error:
            raise FleetError(f"--paths-from {paths_from}: cannot read it ({error.strerror})")
        except UnicodeDecodeError as error:
            raise FleetError(f"--paths-from {paths_from}: not UTF-8 text (byte {error.start} of line {number})")
    local, remote, seen = [], [], set()
    for pattern in named:
        if has_scheme(pattern) and not pattern.startswith("file://"):
            remote.append(pattern)
            continue
        name = local_path(pattern)
        if any(ch in name for ch in "*?["):
            matches = sorted(p for p in glob.glob(name, recursive=True) if os.path.isfile(p))
        elif os.path.isdir(name):
            matches = sorted(os.path.join(root, f) for root, _, files in os.walk(name)
                             for f in files if f.endswith(".lifetrace"))
        elif os.path.exists(name):
            matches = [name]
        else:
            raise FleetError(f"{pattern}: no such file or directory")
        if not matches:
            raise FleetError(f"{pattern}: matches no trace")
        for match in matches:
            absolute = os.path.abspath(match)
            if absolute not in seen:
                seen.add(absolute)
                local.append(absolute)
    return local, remote


# ----------------------------------------------------------------------------------------------------------
# Auditing a partition (executors)

def problem_lines(path, message):
    """The records of a trace the binary did not report (it crashed, or was stopped): an input_problem line and
    a trace line, so the trace is counted, never lost."""
    trace = {"path": path, "trace_id": None, "producer": None}
    return [
        json.dumps({"schema": SCHEMA_ID, "type": "input_problem", "trace": trace, "severity": "error",
                    "message": message, "line": None, "byte_offset": None}),
        json.dumps({"schema": SCHEMA_ID, "type": "trace", "trace": trace, "events": 0, "findings": 0,
                    "complete": False}),
    ]


def run_batch(binary, batch, jobs, config):
    """Runs `lifetrace audit --format ndjson` over `batch` (local paths). Returns (lines without the summary
    line, paths reported by a trace line, exit status, standard error)."""
    command = [binary, "audit", "--format", "ndjson", "--jobs", str(jobs)]
    if config:
        command += ["--config", config]
    result = subprocess.run(command + batch, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines, reported = [], set()
    for raw in result.stdout.decode("utf-8", "replace").splitlines():
        if not raw:
            continue
        record = json.loads(raw)
        if record.get("schema") != SCHEMA_ID:
            raise RuntimeError(f"{binary} audit --format ndjson wrote a line of schema {record.get('schema')!r}; "
                               f"this job reads {SCHEMA_ID} (docs/NDJSON.md)")
        kind = record.get("type")
        if kind == "summary":
            continue
        if kind == "trace":
            reported.add(record["trace"]["path"])
        lines.append(raw)
    return lines, reported, result.returncode, result.stderr.decode("utf-8", "replace")


def describe_exit(status):
    return f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"


def audit_paths(binary, items, batch_size, jobs, config):
    """Yields the NDJSON lines of every (reported path, local path) in `items`, auditing `batch_size` traces
    per process. A trace the binary did not report in its batch is audited again alone; one it still does not
    report becomes an input problem naming the exit status and the last line of standard error. A binary that
    reports nothing for a single trace and was not killed refused its arguments (a bad --config): that stops
    the job with its message."""
    items = list(items)
    for start in range(0, len(items), batch_size):
        batch = items[start:start + batch_size]
        local_to_reported = {local: reported for reported, local in batch}
        lines, reported, status, stderr = run_batch(binary, [local for _, local in batch], jobs, config)
        missing = [(r, l) for r, l in batch if l not in reported]
        if missing and len(batch) > 1:
            for item in missing:
                yield from audit_paths(binary, [item], 1, 1, config)
            missing = []
        elif missing and status >= 0 and not lines:
            raise RuntimeError(f"{binary} audit {describe_exit(status)} without auditing {missing[0][1]}: "
                               f"{stderr.strip()}")
        if any(local != reported_path for reported_path, local in batch):
            lines = [rename_line(line, local_to_reported) for line in lines]
        yield from lines
        for reported_path, local in missing:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else "no message"
            yield from problem_lines(reported_path, f"{reported_path}: lifetrace audit {describe_exit(status)} "
                                                    f"before reporting this trace ({last})")


def rename_line(line, local_to_reported):
    """A line of a staged copy names the original path, in its identity and in its messages."""
    record = json.loads(line)
    local = record["trace"]["path"]
    original = local_to_reported.get(local, local)
    if original == local:
        return line
    return line.replace(json.dumps(local)[1:-1], json.dumps(original)[1:-1])


def partition_of_paths(binary_name, batch_size, jobs, config_name):
    """The mapPartitions function over local paths (a shared or local file system)."""
    def run(paths):
        binary, config = shipped(binary_name, config_name)
        return audit_paths(binary, ((p, p) for p in paths), batch_size, jobs, config)
    return run


def partition_of_files(binary_name, batch_size, jobs, config_name):
    """The mapPartitions function over (path, content) rows of Spark's binaryFile source (any Hadoop file
    system): each partition writes its traces to a local temporary directory first."""
    def run(rows):
        binary, config = shipped(binary_name, config_name)
        with tempfile.TemporaryDirectory(prefix="lifetrace-fleet-") as directory:
            items = []
            for index, row in enumerate(rows):
                local = os.path.join(directory, f"{index}-{os.path.basename(row.path)}")
                with open(local, "wb") as handle:
                    handle.write(row.content)
                items.append((row.path, local))
            yield from audit_paths(binary, items, batch_size, jobs, config)
    return run


def shipped(binary_name, config_name):
    from pyspark import SparkFiles
    binary = SparkFiles.get(binary_name)
    if not os.access(binary, os.X_OK):
        os.chmod(binary, 0o755)
    return binary, (SparkFiles.get(config_name) if config_name else None)


# ----------------------------------------------------------------------------------------------------------
# Tables (driver)

def tables(records):
    """The four output DataFrames from the DataFrame of NDJSON records."""
    from pyspark.sql import functions as F

    app_version = F.coalesce(F.col("trace.app_version"),
                             F.regexp_extract(F.col("trace.path"), APP_VERSION_SEGMENT.pattern, 1))
    app_version = F.when(app_version == "", F.lit(None)).otherwise(app_version)
    identity = [F.col("trace.path").alias("path"), F.col("trace.trace_id").alias("trace_id"),
                F.col("trace.producer").alias("producer"), app_version.alias("app_version"),
                F.col("trace.os_version").alias("os_version")]

    findings = records.where(F.col("type") == "finding").select(
        *identity, "rule", "severity", "verdict", "controller",
        F.regexp_replace("controller", CONTROLLER_SERIAL.pattern, "").alias("controller_type"),
        "callback", "event", "t_ns", "unix_ns", "time", "line",
        F.col("source.file").alias("source_file"), F.col("source.line").alias("source_line"), "message", "related")
    traces = records.where(F.col("type") == "trace").select(*identity, "events", "findings", "complete")
    problems = records.where(F.col("type") == "input_problem").select(
        *identity, "severity", "message", "line", "byte_offset")

    sessions = (traces.where(F.col("events") > 0).groupBy("app_version")
                .agg(F.count("*").alias("sessions")).withColumnRenamed("app_version", "sessions_app_version"))
    aggregates = (findings.groupBy("rule", "controller_type", "app_version")
                  .agg(F.countDistinct("path").alias("sessions_affected"),
                       F.count("*").alias("findings"),
                       F.min("unix_ns").alias("first_seen_unix_ns"),
                       F.max("unix_ns").alias("last_seen_unix_ns"))
                  .join(sessions, F.col("app_version").eqNullSafe(F.col("sessions_app_version")), "left")
                  .withColumn("share_of_sessions", F.col("sessions_affected") / F.col("sessions"))
                  .select("rule", "controller_type", "app_version", "sessions_affected", "sessions",
                          "share_of_sessions", "findings", "first_seen_unix_ns", "last_seen_unix_ns"))
    return findings, traces, aggregates, problems


# ----------------------------------------------------------------------------------------------------------
# The command

def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Audit a fleet of Lifetrace traces on Apache Spark and write the findings, their "
                    "aggregates and the input problems as Parquet.",
        epilog="Examples:\n"
               "  python3 fleet/lifetrace_fleet.py 'traces/**/*.lifetrace' -o fleet-out\n"
               "  spark-submit fleet/lifetrace_fleet.py --master yarn --binary lifetrace "
               "--paths-from day.txt -o s3a://bucket/audits/2026-12-01\n\n"
               "Exit codes: 0 the tables were written; 2 bad arguments, no Java, no binary, or a failed job.\n"
               "docs/FLEET.md describes the tables.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="*", metavar="TRACE",
                        help="a trace, a directory (searched for *.lifetrace), a glob (quote it; ** recurses), "
                             "or a hdfs://, s3a://, ... path or glob, read through Spark")
    parser.add_argument("--paths-from", metavar="FILE", help="read more TRACE arguments from FILE, one a line")
    parser.add_argument("-o", "--output", metavar="DIR", required=True,
                        help="directory for the Parquet tables (must not exist, unless --overwrite)")
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace DIR if it is the output of an earlier run (it holds {MARKER})")
    parser.add_argument("--binary", metavar="PATH", default=".build/release/lifetrace",
                        help="the lifetrace binary shipped to the executors (default: %(default)s; build it "
                             "with swift build -c release --static-swift-stdlib --product lifetrace)")
    parser.add_argument("--config", metavar="FILE", help="a .lifetrace.json shipped to the executors")
    parser.add_argument("--master", metavar="URL", default=None,
                        help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--partitions", type=positive, metavar="N",
                        help="partitions of the trace list (default: Spark's default parallelism)")
    parser.add_argument("--batch", type=positive, default=200, metavar="N",
                        help="traces per lifetrace process (default: %(default)s)")
    parser.add_argument("--jobs-per-task", type=positive, default=1, metavar="N",
                        help="--jobs of each lifetrace process (default: %(default)s, one per Spark task)")
    parser.add_argument("--stage", action="store_true",
                        help="read local traces through Spark's binaryFile source too, as remote ones are")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    arguments = parser.parse_args(argv)
    if not arguments.traces and not arguments.paths_from:
        parser.error("give at least one TRACE or --paths-from FILE")
    return arguments


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1; got '{text}'")
    return value


def check_environment(arguments):
    """FleetError unless Java, pyspark and a lifetrace binary with --format ndjson are there."""
    java_home = os.environ.get("JAVA_HOME")
    java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        where = f"JAVA_HOME={java_home} has no bin/java" if java_home else "no java on PATH and JAVA_HOME unset"
        raise FleetError(f"no Java runtime ({where}); Spark needs Java 17 or later: run tools/install-deps "
                         "(Debian: apt-get install default-jre-headless)")
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise FleetError("the Python package pyspark is missing: run tools/install-deps and use "
                         ".build/venv/bin/python3 (or pip install -r tools/requirements.txt)")
    binary = arguments.binary
    if not os.path.isfile(binary):
        raise FleetError(f"--binary {binary}: no such file; build it with "
                         "swift build -c release --static-swift-stdlib --product lifetrace")
    if not os.access(binary, os.X_OK):
        raise FleetError(f"--binary {binary}: not executable")
    try:
        help_text = subprocess.run([os.path.abspath(binary), "audit", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=60).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired) as error:
        raise FleetError(f"--binary {binary}: cannot run it ({error})")
    if "ndjson" not in help_text:
        raise FleetError(f"--binary {binary}: its audit has no --format ndjson; build a newer lifetrace")
    if arguments.config and not os.path.isfile(arguments.config):
        raise FleetError(f"--config {arguments.config}: no such file")


def prepare_output(arguments):
    output = arguments.output
    if has_scheme(output) and not output.startswith("file://"):
        return  # written by Spark; it refuses an existing directory unless --overwrite
    output = local_path(output)
    if os.path.exists(output):
        if not arguments.overwrite:
            raise FleetError(f"-o {output}: already exists; choose another directory, or --overwrite to "
                             "replace the output of an earlier run")
        if not os.path.isfile(os.path.join(output, MARKER)):
            raise FleetError(f"-o {output}: not the output of an earlier run (no {MARKER}); not replacing it")
        shutil.rmtree(output)
    os.makedirs(output)
    write_summary(output, {"schema": "lifetrace.fleet-summary/1", "complete": False})


def run(arguments):
    from pyspark.sql import SparkSession

    local, remote = list_inputs(arguments.traces, arguments.paths_from)
    prepare_output(arguments)
    builder = SparkSession.builder.appName("lifetrace-fleet")
    if arguments.master:
        builder = builder.master(arguments.master)
    elif "PYSPARK_GATEWAY_PORT" not in os.environ:  # not started by spark-submit, which sets the master
        builder = builder.master("local[*]")
    builder = builder.config("spark.ui.showConsoleProgress", "false" if arguments.quiet else "true")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        return run_job(spark, arguments, local, remote)
    finally:
        spark.stop()


def run_job(spark, arguments, local, remote):
    started = time.monotonic()
    context = spark.sparkContext
    context.addFile(os.path.abspath(arguments.binary))
    binary_name = os.path.basename(arguments.binary)
    config_name = None
    if arguments.config:
        context.addFile(os.path.abspath(arguments.config))
        config_name = os.path.basename(arguments.config)
    partitions = arguments.partitions or context.defaultParallelism
    lines = context.emptyRDD()
    if local and not arguments.stage:
        paths = context.parallelize(local, min(partitions, len(local)))
        lines = lines.union(paths.mapPartitions(
            partition_of_paths(binary_name, arguments.batch, arguments.jobs_per_task, config_name)))
    staged = remote + (["file://" + p for p in local] if arguments.stage else [])
    if staged:
        files = spark.read.format("binaryFile").load(staged).select("path", "content")
        files = files.repartition(min(partitions, max(1, files.count())))
        lines = lines.union(files.rdd.mapPartitions(
            partition_of_files(binary_name, arguments.batch, arguments.jobs_per_task, config_name)))
    context.setJobDescription(f"lifetrace audit of {len(local) + len(remote)} inputs")
    records = spark.read.schema(ndjson_schema()).option("mode", "FAILFAST").json(lines)
    records = records.cache()
    findings, traces, aggregates, problems = tables(records)
    output = arguments.output
    for name, table in (("traces", traces), ("findings", findings), ("aggregates", aggregates),
                        ("input_problems", problems)):
        context.setJobDescription(f"write {name}")
        table.write.mode("overwrite" if arguments.overwrite else "errorifexists").parquet(f"{output}/{name}")
    from pyspark.sql import functions as F
    context.setJobDescription("count")
    by_type = {row["type"]: row for row in records.groupBy("type").agg(
        F.count("*").alias("records"), F.sum("events").alias("events"),
        F.countDistinct("trace.path").alias("paths")).collect()}

    def count(kind, column="records"):
        row = by_type.get(kind)
        return (row[column] or 0) if row else 0

    counts = {
        "schema": "lifetrace.fleet-summary/1",
        "traces": count("trace"),
        "events": count("trace", "events"),
        "findings": count("finding"),
        "aggregate_rows": spark.read.parquet(f"{output}/aggregates").count(),
        "input_problems": count("input_problem"),
        "traces_with_input_problems": count("input_problem", "paths"),
        "seconds": round(time.monotonic() - started, 3),
        "complete": True,
    }
    write_summary(output, counts)
    return counts


def write_summary(output, counts):
    text = json.dumps(counts, indent=2) + "\n"
    if has_scheme(output) and not output.startswith("file://"):
        from pyspark.sql import SparkSession
        spark = SparkSession.getActiveSession()
        spark.sparkContext.parallelize([text], 1).saveAsTextFile(f"{output}/{MARKER}")
        return
    with open(os.path.join(local_path(output), MARKER), "w", encoding="utf-8") as handle:
        handle.write(text)


def failure_cause(error):
    """The line of a failed job's message that says why: the last Python exception raised in a task (a
    RuntimeError of audit_paths), else the first line."""
    text = str(error).strip()
    causes = re.findall(r"^(?:\w+\.)*(\w*(?:Error|Exception)): (.+)$", text, re.MULTILINE)
    python = [f"{kind}: {message}" for kind, message in causes if not kind.startswith(("Py4J", "Spark"))]
    if python:
        return python[-1]
    return text.splitlines()[0] if text else type(error).__name__


def main(argv=None):
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        check_environment(arguments)
        counts = run(arguments)
    except FleetError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:  # a failed Spark job: its cause, not a JVM stack trace
        print(f"{PROG}: error: the Spark job failed: {failure_cause(error)}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{PROG}: audited {counts['traces']} traces ({counts['events']} events): {counts['findings']} findings "
          f"in {counts['aggregate_rows']} aggregate rows, {counts['input_problems']} input problems in "
          f"{counts['traces_with_input_problems']} traces; tables in {arguments.output} "
          f"({counts['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
