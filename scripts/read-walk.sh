#!/bin/bash
# read-walk.sh [TREE] [run|serve]: lists the functions of plugins/tools and internal/argcheck (the
# argument checks, where TREE has them) that one `read` call runs, in the checkout TREE (default:
# this one). WALK_PKGS widens the packages walked: a comma-separated list of package patterns
# (default ./plugins/tools/...,./internal/argcheck/...), ./... for every package of the module. It builds the harness with count coverage, makes one and
# then two calls (`harness run` JSON lines, or `harness serve` on stdio), and keeps the blocks whose
# count grew by the second call: the per-call walk, without the setup. WALK_TOOL=edit walks an
# `edit` instead: one read of the file, then one and then two edits (each undoing the last).
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
mode=${2:-run}
pkgs=${WALK_PKGS:-./plugins/tools/...,./internal/argcheck/...}
tool=${WALK_TOOL:-read}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
(cd "$tree" && go build -cover -covermode=count -coverpkg="$pkgs",./cmd/harness -o "$w/h" ./cmd/harness)
# args i: the arguments of call i (for an edit, call 0 is the read before it).
args() {
  if [ "$tool" = edit ] && [ "$1" -gt 0 ]; then
    local from='line 100' to='line 100 edited'
    [ $(($1 % 2)) = 0 ] && { from='line 100 edited'; to='line 100'; }
    echo '{"file_path":"'"$w"'/f.txt","old_string":"'"$from"'\n","new_string":"'"$to"'\n"}'
  else
    echo '{"file_path":"'"$w"'/f.txt"}'
  fi
}
name() { if [ "$tool" = edit ] && [ "$1" -gt 0 ]; then echo edit; else echo read; fi; }
calls() {
  local first=1
  [ "$tool" = edit ] && first=0
  if [ "$mode" = serve ]; then
    echo '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"walk","version":"1"}}}'
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    for i in $(seq "$first" "$1"); do echo '{"jsonrpc":"2.0","id":'"$((i + 1))"',"method":"tools/call","params":{"name":"'"$(name "$i")"'","arguments":'"$(args "$i")"'}}'; sleep 0.3; done
    sleep 1 # serve ends when stdin does: let the answers out first
  else
    for i in $(seq "$first" "$1"); do echo '{"id":'"$((i + 1))"',"tool":"'"$(name "$i")"'","args":'"$(args "$i")"'}'; done
  fi
}
for n in 1 2; do
  # Each run starts from the same file too: the first run's edit would otherwise leave the
  # second's first edit nothing to match (a failure path counted as the edit's walk).
  seq 1 200 | sed 's/^/line /' > "$w/f.txt"
  mkdir "$w/c$n"
  # Each run starts from a fresh state directory of its own: with a shared one, the first run
  # creates what the second only reads (the journal key), and that would count as per call.
  mkdir "$w/state$n"
  calls $n | XDG_STATE_HOME="$w/state$n" GOCOVERDIR="$w/c$n" "$w/h" "$mode" --cwd "$w" > /dev/null 2>&1
  go tool covdata textfmt -i="$w/c$n" -o "$w/c$n.txt"
done
python3 - "$tree" "$w/c1.txt" "$w/c2.txt" "$pkgs" <<'PY'
import bisect, collections, os, re, sys
tree, one, two, pkgs = sys.argv[1:]
# The walked directories: each pattern's directory ('' for ./..., every package).
dirs = tuple('' if p.rstrip('.').strip('./') == '' else p.removeprefix('./').removesuffix('...').rstrip('/') + '/'
             for p in pkgs.split(','))
def load(p):
    d = {}
    for l in open(p):
        if not l.startswith('mode'):
            k, _, c = l.rsplit(' ', 2); d[k] = d.get(k, 0) + int(c)
    return d
a, b = load(one), load(two)
starts, walk = {}, collections.OrderedDict()
for k in sorted(b):
    if b[k] <= a.get(k, 0): continue
    f, rng = k.split(':'); rel = f.split('cordon/', 1)[-1]
    if not rel.startswith(dirs) or not os.path.exists(os.path.join(tree, rel)): continue
    if rel not in starts:
        starts[rel] = [(i + 1, (m.group(1) or '') + m.group(2))
                       for i, s in enumerate(open(os.path.join(tree, rel)).read().split('\n'))
                       for m in [re.match(r'^func (\([^)]*\) )?([A-Za-z0-9_]+)', s)] if m]
    fs = starts[rel]; i = bisect.bisect_right([x[0] for x in fs], int(rng.split('.')[0])) - 1
    walk.setdefault(rel, [])
    if fs[i][1] not in walk[rel]: walk[rel].append(fs[i][1])
packages = {os.path.dirname(f) for f in walk}
print(f'{sum(map(len, walk.values()))} functions in {len(walk)} files of {len(packages)} packages per {os.environ.get("WALK_TOOL", "read")} call')
for f, names in walk.items(): print(f'  {f}: ' + ', '.join(names))
PY
