#!/bin/bash
# bigread.sh [TREE...]: the `read` of the last page of a 1 GiB file next to `wc -l` on the same
# file, through `harness run` built from each checkout TREE (default: this one), so that a change
# can be measured against its base on one machine at one time: bigread.sh "$(git worktree ...)" .
# It generates the file (10,000,000 lines of 107 bytes) in a temporary directory, reads it once to
# warm the page cache, then times RUNS (environment, default 7) rounds, each running `wc -l` and
# every tree's read once in turn, and prints per command the best and the median wall time, the
# ratio of the best to `wc -l`'s best, and the peak RSS of the read (/usr/bin/time). The temporary
# directory (which also holds the reads' state directory, XDG_STATE_HOME) is removed on exit.
set -euo pipefail
runs=${RUNS:-7}
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=("$(dirname "$0")/..")
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# A state directory of its own: the reads are timed without this machine's history behind them.
export XDG_STATE_HOME="$w/state"
for i in "${!trees[@]}"; do
  (cd "${trees[$i]}" && go build -o "$w/harness$i" ./cmd/harness)
done
f="$w/big.txt"
python3 - "$f" <<'PY'
import sys
line = b"x" * 100
with open(sys.argv[1], "wb") as out:
    block = b"".join(b"%06d" % (i % 1000000) + line + b"\n" for i in range(10000))
    for _ in range(1000):
        out.write(block)
PY
lines=$(wc -l < "$f")
call='{"id":1,"tool":"read","args":{"file_path":"'"$f"'","offset":'"$((lines - 1999))"'}}'
cat "$f" > /dev/null
for i in "${!trees[@]}"; do
  out=$(echo "$call" | "$w/harness$i" run --cwd "$w" 2>/dev/null)
  case "$out" in *'"isError":false'*) ;; *) echo "read failed (${trees[$i]}): ${out:0:300}" >&2; exit 1 ;; esac
done
python3 - "$f" "$w" "$runs" "$call" "${trees[@]}" <<'PY'
import os, statistics, subprocess, sys, time
f, w, runs, call, trees = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
cmds = [("wc -l", ["wc", "-l", f], None)] + [
    ("read " + t, [os.path.join(w, "harness%d" % i), "run", "--cwd", w], call + "\n") for i, t in enumerate(trees)]
times = {name: [] for name, _, _ in cmds}
for _ in range(runs):
    for name, argv, stdin in cmds:
        s = time.perf_counter()
        subprocess.run(argv, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - s)
base = min(times["wc -l"])
for name, argv, stdin in cmds:
    rss = ""
    if stdin:
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
        rss = "  peak RSS %.1f MiB" % (int(r.stderr.strip().splitlines()[-1]) / 1024)
    t = times[name]
    print("%-40s best %.3fs  median %.3fs  best/wc-l %.2fx%s" % (name, min(t), statistics.median(t), min(t) / base, rss))
PY
