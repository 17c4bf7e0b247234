#!/usr/bin/env python3
"""Generates a fleet of traces for the fleet check and benchmark: simulated sessions of several app versions,
some of them the seeded mistakes of traces/scenarios, a few damaged on purpose.

    make_fleet.py --binary .build/debug/lifetrace --traces 300 --seed 1 DIR

writes DIR/app_version=V/session-NNNN.lifetrace (V cycles through three versions) and DIR/manifest.json:
{"traces": [every path], "damaged": {path: how}}. With --damaged 0 no trace is damaged (the benchmark).
"""

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

VERSIONS = ["2.0.0", "2.1.0", "2.2.0"]
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mistake_scenarios():
    """The scenarios of traces/scenarios that reproduce a mistake (the `-fixed` ones and the plain UIKit
    orders give few or no findings; every scenario is used, so both kinds are in the fleet)."""
    directory = os.path.join(REPOSITORY, "traces", "scenarios")
    return sorted(os.path.join(directory, name) for name in os.listdir(directory) if name.endswith(".scenario"))


def plan(count, seed):
    """(relative path, simulate arguments) for each trace: one in eight is a scenario, the rest generated
    sessions of 1,000 to 16,000 events (one to three frames) with seeds from `seed` on."""
    scenarios = mistake_scenarios()
    entries = []
    for index in range(count):
        version = VERSIONS[index % len(VERSIONS)]
        path = os.path.join(f"app_version={version}", f"session-{index:04d}.lifetrace")
        if index % 8 == 3:
            arguments = [scenarios[(index // 8) % len(scenarios)]]
        else:
            events = 1000 + (index * 7919 + seed * 104729) % 15000
            arguments = ["--generate", str(events), "--seed", str(seed * 100003 + index)]
        entries.append((path, arguments))
    return entries


def damage(path, how):
    """Damages the trace at `path` in place: `truncate-half`, `truncate-header` (cut inside the file header),
    `flip-middle` (one byte of a frame payload inverted), `empty` or `not-a-trace`."""
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    if how == "truncate-half":
        data = data[:len(data) // 2]
    elif how == "truncate-header":
        data = data[:20]
    elif how == "flip-middle":
        data[int(len(data) * 0.6)] ^= 0xFF
    elif how == "empty":
        data = bytearray()
    elif how == "not-a-trace":
        data = bytearray(b"this is a console log, not a trace\n")
    with open(path, "wb") as handle:
        handle.write(data)


DAMAGE = ["truncate-half", "flip-middle", "truncate-header", "truncate-half", "flip-middle", "empty",
          "not-a-trace", "truncate-half", "flip-middle"]


def make(binary, directory, count, seed, damaged, workers=2):
    entries = plan(count, seed)
    for version in VERSIONS:
        os.makedirs(os.path.join(directory, f"app_version={version}"), exist_ok=True)

    def simulate(entry):
        relative, arguments = entry
        target = os.path.join(directory, relative)
        result = subprocess.run([binary, "simulate", *arguments, "-o", target],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if result.returncode != 0:
            raise RuntimeError(f"{binary} simulate {' '.join(arguments)}: {result.stderr.decode().strip()}")
        return target

    with ThreadPoolExecutor(max_workers=workers) as pool:
        paths = list(pool.map(simulate, entries))
    # Damaged traces spread over the fleet (every 31st, from the 5th on), each kind in turn.
    broken = {}
    for number, index in enumerate(range(5, count, 31)):
        if number >= damaged:
            break
        how = DAMAGE[number % len(DAMAGE)]
        damage(paths[index], how)
        broken[paths[index]] = how
    manifest = {"traces": paths, "damaged": broken}
    with open(os.path.join(directory, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=1)
    return manifest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", metavar="DIR")
    parser.add_argument("--binary", default=os.path.join(REPOSITORY, ".build", "debug", "lifetrace"))
    parser.add_argument("--traces", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--damaged", type=int, default=9, help="how many traces to damage (default: 9)")
    arguments = parser.parse_args()
    manifest = make(arguments.binary, arguments.directory, arguments.traces, arguments.seed, arguments.damaged)
    print(f"{len(manifest['traces'])} traces in {arguments.directory}, {len(manifest['damaged'])} damaged")


if __name__ == "__main__":
    sys.exit(main())
