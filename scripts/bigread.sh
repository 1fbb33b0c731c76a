#!/bin/bash
# bigread.sh [TREE] [RUNS]: the `read` of the last page of a 1 GiB file next to `wc -l` on the same
# file, through `harness run` built from the checkout TREE (default: this one). It generates the file
# (10,000,000 lines of 107 bytes) in a temporary directory, reads the page cache warm once, then
# times RUNS (default 5) runs of each and prints the best wall time of each, their ratio, and the
# harness's peak RSS (/usr/bin/time). The temporary directory is removed on exit.
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
runs=${2:-5}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
(cd "$tree" && go build -o "$w/harness" ./cmd/harness)
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
offset=$((lines - 1999))
call='{"id":1,"tool":"read","args":{"file_path":"'"$f"'","offset":'"$offset"'}}'
cat "$f" > /dev/null
best() { # best wall seconds of $runs runs of "$@"
  local b=""
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
    b=$(python3 -c "import sys; a=float(sys.argv[1]); b=sys.argv[2]; print(a if b=='' or a<float(b) else b)" "$(python3 -c "print($e-$s)")" "$b")
  done
  echo "$b"
}
readcall() { echo "$call" | "$w/harness" run --cwd "$w"; }
wcl=$(best wc -l "$f")
rd=$(best readcall)
out=$(readcall)
case "$out" in *'"isError":false'*) ;; *) echo "read failed: ${out:0:300}" >&2; exit 1 ;; esac
rss=$( { echo "$call" | /usr/bin/time -f '%M' "$w/harness" run --cwd "$w" > /dev/null; } 2>&1 | tail -1)
python3 -c "import sys; w,r,m=map(float,sys.argv[1:]); print(f'wc -l: {w:.3f}s  read (harness run, last page): {r:.3f}s  ratio: {r/w:.2f}x  read peak RSS: {m/1024:.1f} MiB')" "$wcl" "$rd" "$rss"
