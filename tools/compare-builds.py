#!/usr/bin/env python3
"""Differential check of two lifetrace builds: findings, states, timelines and info must not change.

Usage: tools/compare-builds.py OLD_LIFETRACE NEW_LIFETRACE REPO WORKDIR
  e.g. git clone -q . /tmp/old && git -C /tmp/old checkout -q 4786e18 && (cd /tmp/old && swift build -c release --product lifetrace)
       tools/compare-builds.py /tmp/old/.build/release/lifetrace .build/release/lifetrace . /tmp/cmp
Environment: SEEDS (generated sessions, default 40, sizes 1..20000), RSEED (seed of the random cuts and mutations),
JOBS (parallel inputs, default 2), EXTRA (colon-separated directories of more *.lifetrace inputs).

Inputs (written to WORKDIR with NEW): traces/ and Tests/Fixtures (*.lifetrace, imported *.log), `simulate --generate`
sessions, .lifetrace files cut at random byte offsets and with a flipped byte, JSON Lines exports cut at random lines
and mid-line, mutated exports (events dropped, duplicated, copied elsewhere; times kept monotonic), and two sessions
spliced into one (several recording runs), also imported. Commands: audit --format json (default and all-rules
configuration), audit text with all rules, info (text, json), timeline, state --format json (end, and three instants
including 0, 2^63 and 2^64 - 1 ns). Exit code and stdout must match; stderr must match except the notes added on
purpose in the sixth session (a trace without readable events; --at past the end of the trace clock).
Prints each difference and a summary line: inputs=N comparisons=N diffs=N.
"""
import os, random, subprocess, sys, json, shutil, concurrent.futures as cf

OLD, NEW, REPO, WORK = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
SEEDS = int(os.environ.get("SEEDS", "40"))
rng = random.Random(int(os.environ.get("RSEED", "6")))
os.makedirs(WORK, exist_ok=True)
ALL = os.path.join(WORK, "all-rules.json")
RULES = ["critical_save_placement","unsaved_edit_at_exit","appearance_balance","view_did_load_once","leaked_controller","orphan_child","view_loaded_in_init","geometry_before_appearing","teardown_in_will_disappear","work_before_visible","hosting_children_accumulate","expensive_layout","timer_under_sheet","analytics_overcount","observer_not_removed"]
json.dump({"opt_in_rules": RULES}, open(ALL, "w"))

def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, cwd=WORK)
    return p.returncode, p.stdout, p.stderr

inputs = []
def add(path): inputs.append(path)

# committed traces and fixtures, and any extra directories of traces (EXTRA=dir:dir)
extra = [d for d in os.environ.get("EXTRA", "").split(":") if d]
for root in [os.path.join(REPO, "traces"), os.path.join(REPO, "Tests/Fixtures")] + extra:
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.endswith(".lifetrace"):
                add(os.path.join(d, f))
# imported console logs
for d, _, fs in os.walk(os.path.join(REPO, "Tests/Fixtures")):
    for f in sorted(fs):
        if f.endswith(".log"):
            out = os.path.join(WORK, "imp-" + f + ".lifetrace")
            rc, _, _ = run(NEW, ["import", os.path.join(d, f), "-o", out])
            if os.path.exists(out): add(out)
# generated sessions
sizes = [1, 2, 3, 5, 10, 20, 50, 100, 300, 1000, 5000, 20000]
gen = []
for s in range(1, SEEDS + 1):
    n = sizes[s % len(sizes)]
    out = os.path.join(WORK, f"gen-{n}-{s}.lifetrace")
    if not os.path.exists(out):
        run(NEW, ["simulate", "--generate", str(n), "--seed", str(s), "-o", out])
    add(out); gen.append(out)

def export(path):
    rc, out, _ = run(NEW, ["export", path])
    return out.decode().splitlines()

# truncated .lifetrace at random offsets, truncated JSONL at random lines, mutated JSONL
base = [p for p in inputs]
for i, p in enumerate(rng.sample(base, min(len(base), 30))):
    data = open(p, "rb").read()
    for k in range(2):
        off = rng.randrange(1, len(data)) if len(data) > 1 else 0
        out = os.path.join(WORK, f"cut-{i}-{k}.lifetrace")
        open(out, "wb").write(data[:off]); add(out)
    # flip a byte (CRC damage)
    if len(data) > 100:
        b = bytearray(data); o = rng.randrange(60, len(b)); b[o] ^= 0x41
        out = os.path.join(WORK, f"flip-{i}.lifetrace"); open(out, "wb").write(bytes(b)); add(out)
    lines = export(p)
    if len(lines) > 1:
        for k in range(2):
            n = rng.randrange(1, len(lines) + 1)
            out = os.path.join(WORK, f"cut-{i}-{k}.jsonl")
            open(out, "w").write("\n".join(lines[:n]) + "\n"); add(out)
        # partial last line
        out = os.path.join(WORK, f"cutmid-{i}.jsonl")
        txt = "\n".join(lines); open(out, "w").write(txt[:rng.randrange(len(lines[0]) + 1, len(txt))]); add(out)

def mutate(lines, rate):
    head, evs = lines[0], [json.loads(l) for l in lines[1:]]
    out = []
    for e in evs:
        r = rng.random()
        if r < rate: continue                       # drop
        out.append(e)
        if r < 2 * rate: out.append(dict(e))        # duplicate
        if r < 3 * rate and evs:                    # insert a random other event here
            x = dict(rng.choice(evs)); out.append(x)
    # re-time monotonically (keep original spacing roughly)
    t = 0
    for e in out:
        t = max(t, e.get("t_ns", 0)); e["t_ns"] = t
    return [head] + [json.dumps(e, separators=(",", ":")) for e in out]

for i, p in enumerate(gen[:SEEDS]):
    lines = export(p)
    if len(lines) < 3: continue
    for k, rate in enumerate((0.01, 0.05, 0.15)):
        out = os.path.join(WORK, f"mut-{i}-{k}.jsonl")
        open(out, "w").write("\n".join(mutate(lines, rate)) + "\n"); add(out)
    # several runs: concatenate another export with shifted times
    other = export(rng.choice(gen))
    if len(other) > 1:
        last = json.loads(lines[-1]).get("t_ns", 0)
        tail = []
        for l in other[1:]:
            e = json.loads(l); e["t_ns"] = e.get("t_ns", 0) + last + 1000; tail.append(json.dumps(e, separators=(",", ":")))
        cutn = rng.randrange(1, len(lines))
        out = os.path.join(WORK, f"runs-{i}.jsonl")
        open(out, "w").write("\n".join(lines[:cutn]) + "\n"); open(out, "a").write("\n".join(
            [json.dumps({**json.loads(l), "t_ns": json.loads(l)["t_ns"] + json.loads(lines[cutn-1]).get("t_ns",0) - last} , separators=(",", ":")) for l in tail]) + "\n")
        add(out)
        imp = out + ".lifetrace"
        run(NEW, ["import", out, "-o", imp])
        if os.path.exists(imp): add(imp)

def commands(path):
    cmds = [["audit", "--format", "json", path], ["audit", "--config", ALL, "--format", "json", path],
            ["audit", "--config", ALL, path], ["info", path], ["info", "--format", "json", path],
            ["timeline", path], ["state", "--format", "json", path]]
    r = random.Random(path)
    for _ in range(3):
        t = r.choice([0, 1, r.randrange(0, 10**10), r.randrange(0, 10**12), 2**64 - 1, 2**63])
        cmds.append(["state", "--format", "json", "--at", f"{t}ns", path])
    return cmds

import re
def norm(err):
    # notes added on purpose this session (fixes6)
    lines = [l for l in err.decode(errors="replace").splitlines()
             if not re.search(r"note: .* (has no readable event|holds no events)", l)]
    return [re.sub(r" and past the end of the trace clock \(2\^64 .*?, where the state is shown", "", l) for l in lines]
def expected_stdout(c, a, b):
    # empty traces: new wording on purpose (fixes6)
    if a[0] == b[0] and a[1] in (b"(empty trace)\n",) and b[1].startswith(b"no events"): return True
    if a[0] == b[0] and c[0] == "state" and b"events_applied\":0," in a[1] and b"holds no events" in b[2] and b[1].startswith(b'{"t_ns":0,'): return True
    return False

def check(path):
    diffs = []
    n = 0
    for c in commands(path):
        a, b = run(OLD, c), run(NEW, c)
        n += 1
        if a[0] != b[0] or a[1] != b[1]:
            if expected_stdout(c, a, b): continue
            diffs.append((c, "rc/stdout", a, b))
        elif norm(a[2]) != norm(b[2]):
            diffs.append((c, "stderr", a, b))
    return n, diffs

total = 0
ndiff = 0
with cf.ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as ex:
    for path, (n, diffs) in zip(inputs, ex.map(check, inputs)):
        total += n
        for c, kind, a, b in diffs:
            ndiff += 1
            print(f"DIFF {kind}: {' '.join(c)}\n  old rc={a[0]} stderr={a[2][:300]!r}\n  new rc={b[0]} stderr={b[2][:300]!r}")
            if kind != "stderr":
                print(f"  old out={a[1][:400]!r}\n  new out={b[1][:400]!r}")
print(f"inputs={len(inputs)} comparisons={total} diffs={ndiff}")
