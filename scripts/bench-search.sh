#!/usr/bin/env bash
# Side-by-side benchmark of `harness run` grep/glob against ripgrep (docs/search.md).
# Whole processes, page cache warm, best of 5. Corpus: a git repository holding a copy of
# $(go env GOROOT)/src. Prints per pattern: matching lines (both), best time (both), ratio; the
# geometric mean of the grep ratios; glob '**/*.go' against rg --files; peak RSS of grep over the
# tree and over a 1 GiB file of 10 M lines. Needs rg (apt-get install -y ripgrep), git, python3.
# With BASE set to another harness binary (one built from the commit a change starts from), the
# grep patterns are also run through it, the three commands alternated round by round so that the
# machine's load falls on all of them, and the CPU time (user + system) of each is printed beside
# the wall time: on a shared machine the CPU ratio is the steadier figure.
# Usage: [BASE=/tmp/harness-before] scripts/bench-search.sh [workdir]   (default /tmp/cordon-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/cordon-bench}
mkdir -p "$work"
go build -o "$work/harness" ./cmd/harness
corpus=$work/goroot
if [ ! -d "$corpus/.git" ]; then
	rm -rf "$corpus"
	cp -r "$(go env GOROOT)/src" "$corpus"
	(cd "$corpus" && git init -q && git add -A && git -c user.email=bench@localhost -c user.name=bench commit -qm corpus)
fi
big=$work/big.txt
if [ ! -f "$big" ]; then
	python3 - "$big" <<'PY'
import sys
line = b"the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWX\n"
assert len(line) == 107
with open(sys.argv[1], "wb") as f:
    chunk = line * 10000
    for _ in range(1000):
        f.write(chunk)
PY
fi
echo "uptime: $(uptime)"
echo "files in corpus: $(cd "$corpus" && git ls-files | wc -l); rg: $(rg --version | head -1)"
python3 - "$work/harness" "$corpus" "$big" "${BASE:-}" <<'PY'
import json, math, os, resource, subprocess, sys, time
harness, corpus, big, base = sys.argv[1:5]
env = dict(os.environ, XDG_STATE_HOME=os.path.join(os.path.dirname(harness), "state"))

def run(cmd, stdin=None, cwd=corpus):
    t = time.perf_counter()
    p = subprocess.run(cmd, input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL, cwd=cwd, env=env, capture_output=True)
    return time.perf_counter() - t, p

def best(cmd, stdin=None, cwd=corpus):
    run(cmd, stdin, cwd)  # warm the page cache
    times, out = [], None
    for _ in range(5):
        dt, p = run(cmd, stdin, cwd)
        times.append(dt)
        out = p
    return min(times), out

def harness_line(tool, args):
    return (json.dumps({"id": 1, "tool": tool, "args": args}) + "\n").encode()

def harness_total(p):
    r = json.loads(p.stdout.decode().splitlines()[0])
    if r["isError"]:
        raise SystemExit("harness failed: " + r["text"])
    return r["value"]["total"]

patterns = [
    ("literal", "func NewReader"),
    ("case-insensitive literal", "(?i)newreader"),
    ("alternation", "Reader|Writer"),
    ("regexp with a literal", r"func [A-Za-z]+Reader\("),
    ("regexp without a literal", r"[0-9]{5,}"),
    ("no match", "zzqqxxnomatch"),
]
def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime

def alternated(cmds):
    """Runs each (cmd, stdin) once to warm up, then 5 rounds in turn; per command the best wall
    and the best CPU seconds and the last completed process."""
    for cmd, stdin in cmds:
        run(cmd, stdin)
    walls = [[] for _ in cmds]; cpus = [[] for _ in cmds]; outs = [None] * len(cmds)
    for _ in range(5):
        for i, (cmd, stdin) in enumerate(cmds):
            c0 = children_cpu()
            dt, p = run(cmd, stdin)
            cpus[i].append(children_cpu() - c0)
            walls[i].append(dt)
            outs[i] = p
    return [min(w) for w in walls], [min(c) for c in cpus], outs

names = ["harness"] + (["base"] if base else [])
print(f"{'kind':26} {'pattern':24} " + " ".join(f"{n + ' n':>9}" for n in names) + f" {'rg n':>8} " +
      " ".join(f"{n + ' s':>9} {n + ' cpu':>9}" for n in names) + f" {'rg s':>7} {'rg cpu':>7} " +
      " ".join(f"{n + ' x':>9} {n + ' cpu x':>9}" for n in names))
ratios = {n: [] for n in names}; cratios = {n: [] for n in names}
for kind, pat in patterns:
    bins = [harness] + ([base] if base else [])
    cmds = [([b, "run", "--cwd", corpus], harness_line("grep", {"pattern": pat})) for b in bins]
    cmds.append((["rg", "--hidden", "--glob", "!.git", "--json", "-e", pat], None))
    walls, cpus, outs = alternated(cmds)
    rn = sum(1 for l in outs[-1].stdout.splitlines() if l.startswith(b'{"type":"match"'))
    counts = [harness_total(p) for p in outs[:-1]]
    line = f"{kind:26} {pat:24} " + " ".join(f"{n:9d}" for n in counts) + f" {rn:8d} "
    line += " ".join(f"{walls[i]:9.3f} {cpus[i]:9.3f}" for i in range(len(names))) + f" {walls[-1]:7.3f} {cpus[-1]:7.3f} "
    for i, n in enumerate(names):
        ratios[n].append(walls[i] / walls[-1]); cratios[n].append(cpus[i] / max(cpus[-1], 1e-3))
    line += " ".join(f"{ratios[n][-1]:9.2f} {cratios[n][-1]:9.2f}" for n in names)
    print(line + ("" if all(c == rn for c in counts) else "  COUNTS DIFFER"))
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
for n in names:
    print(f"{n}: geometric mean ratio: {geo(ratios[n]):.2f}; worst: {max(ratios[n]):.2f} (wall); "
          f"CPU {geo(cratios[n]):.2f}, worst {max(cratios[n]):.2f}")
ht, hp = best([harness, "run", "--cwd", corpus], harness_line("glob", {"pattern": "**/*.go"}))
rt, rp = best(["rg", "--files", "--hidden", "--glob", "!.git", "--glob", "**/*.go"])
print(f"glob **/*.go: harness {harness_total(hp)} files {ht:.3f}s, rg --files {len(rp.stdout.splitlines())} files {rt:.3f}s, ratio {ht/rt:.2f}")

def peak_rss(cmd, stdin, cwd):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, input=stdin, cwd=cwd, env=env, capture_output=True)
    return int(p.stderr.decode().strip().splitlines()[-1]) / 1024, p

for label, pat, path in [("tree", "Reader|Writer", corpus), ("1 GiB file, 10 M lines, every line matches", "lazy dog", big),
                         ("1 GiB file, no match", "zzqqxxnomatch", big)]:
    rss, p = peak_rss([harness, "run", "--cwd", os.path.dirname(path) if path == big else corpus],
                      harness_line("grep", {"pattern": pat, "path": path}), corpus)
    print(f"peak RSS grep over {label}: {rss:.1f} MiB (total {harness_total(p)})")
print("uptime:", subprocess.run(["uptime"], capture_output=True).stdout.decode().strip())
PY
