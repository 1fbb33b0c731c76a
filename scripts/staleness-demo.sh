#!/bin/bash
# staleness-demo.sh [TREE]: drives `harness run` built from the checkout TREE (default: this one)
# through the staleness and near-miss cases of docs/tool-fs.md ("edit", "Staleness", "Near
# misses") and prints, per case, the text each call returned. Files live in a temporary
# directory, removed on exit.
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
(cd "$tree" && go build -o "$w/harness" ./cmd/harness)
for rule in content region; do
  printf 'plugins:\n  - name: fs-local\n  - name: fs-observation-policy\n    config: { staleness: %s }\n  - name: tools\n  - name: tool-fs\n' "$rule" > "$w/$rule.yaml"
done
call() { # call CONFIG JSON...: one harness run with these lines; prints each result's text
  local cfg=$1; shift
  local args=()
  [ "$cfg" = default ] || args=(--config "$w/$cfg.yaml")
  printf '%s\n' "$@" | "$w/harness" run --cwd "$w" "${args[@]}" 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    r=json.loads(l); t=r["text"]
    if r["tool"]=="read" and not r["isError"]: t=t.split("\n")[-2]
    print("  [%s%s] %s" % (r["tool"], " ERROR" if r["isError"] else "", t.replace("\n","\n      ")))'
}
j() { python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])))' "$1"; }
read_() { j '{"tool":"read","args":{"file_path":"'"$1"'"}}'; }
edit_() { python3 -c 'import json,sys; print(json.dumps({"tool":"edit","args":{"file_path":sys.argv[1],"old_string":sys.argv[2],"new_string":sys.argv[3]}}))' "$@"; }
write_() { python3 -c 'import json,sys; print(json.dumps({"tool":"write","args":{"file_path":sys.argv[1],"content":sys.argv[2]}}))' "$@"; }
feed() { # feed CONFIG CHANGE-CMD LINES-BEFORE... -- LINES-AFTER...: run, changing files in between
  local cfg=$1 change=$2; shift 2
  local before=() after=() seen=0
  for a in "$@"; do
    if [ "$a" = -- ]; then seen=1; continue; fi
    if [ $seen = 0 ]; then before+=("$a"); else after+=("$a"); fi
  done
  local args=()
  [ "$cfg" = default ] || args=(--config "$w/$cfg.yaml")
  { printf '%s\n' "${before[@]}"; sleep 0.5; bash -c "$change"; sleep 0.1; printf '%s\n' "${after[@]}"; } |
    { "$w/harness" run --cwd "$w" "${args[@]}" 2>"$w/stderr" || echo "  $(tail -1 "$w/stderr")" >&2; } |
    python3 -c 'import json,sys
for l in sys.stdin:
    r=json.loads(l); t=r["text"]
    if r["tool"]=="read" and not r["isError"]: t=t.split("\n")[-2]
    print("  [%s%s] %s" % (r["tool"], " ERROR" if r["isError"] else "", t.replace("\n","\n      ")))' || true
}
src() { seq 1 12 | sed 's/^/line /' > "$w/$1"; }
for cfg in default region; do
  echo "=== staleness: ${cfg/default/content (default)} ==="
  src a.txt; echo "-- touch after the read, then edit and write"
  feed "$cfg" "sleep 0.01; touch $w/a.txt" "$(read_ a.txt)" -- "$(edit_ a.txt 'line 3' 'line three')" "$(write_ a.txt "$(printf 'x\n')")"
  src b.txt; echo "-- same bytes rewritten (new inode, new mtime), then edit"
  feed "$cfg" "cp $w/b.txt $w/b.tmp && mv $w/b.tmp $w/b.txt" "$(read_ b.txt)" -- "$(edit_ b.txt 'line 3' 'line three')"
  src c.txt; echo "-- a formatter changed line 10, then an edit of line 3"
  feed "$cfg" "sed -i 's/^line 10$/line 10 (formatted)/' $w/c.txt" "$(read_ c.txt)" -- "$(edit_ c.txt 'line 3' 'line three')"
  src e.txt; echo "-- a formatter added a line at the top (every line moved), then an edit of line 3"
  feed "$cfg" "sed -i '1i // header' $w/e.txt" "$(read_ e.txt)" -- "$(edit_ e.txt 'line 3' 'line three')"
  src d.txt; echo "-- a change overlapping the edit (line 3), then an edit of line 3"
  feed "$cfg" "sed -i 's/^line 3$/line 3 changed/' $w/d.txt" "$(read_ d.txt)" -- "$(edit_ d.txt 'line 3' 'line three')"
done
echo "=== near misses ==="
printf 'func f() {\n\tif err != nil {\n\t\treturn err\n\t}\n\n\tx := "a"\n\treturn nil  \n}\n' > "$w/n.go"
echo "-- indentation"
call default "$(read_ n.go)" "$(edit_ n.go "$(printf '    if err != nil {\n        return err\n    }')" 'X')"
echo "-- trailing spaces"
call default "$(read_ n.go)" "$(edit_ n.go "$(printf '\treturn nil\n}')" 'X')"
echo "-- a carriage return"
call default "$(read_ n.go)" "$(edit_ n.go "$(printf '\t\treturn err\r\n\t}\r')" 'X')"
echo "-- curly quotes"
call default "$(read_ n.go)" "$(edit_ n.go "$(printf '\tx := “a”')" 'X')"
echo "-- a missing blank line"
call default "$(read_ n.go)" "$(edit_ n.go "$(printf '\t}\n\tx := "a"')" 'X')"
echo "-- two equally close places"
printf 'a {\n  b\n}\nc {\n  b\n}\n' > "$w/m.txt"
call default "$(read_ m.txt)" "$(edit_ m.txt "$(printf '    b\n}')" 'X')"
echo "-- ambiguous"
call default "$(read_ m.txt)" "$(edit_ m.txt "$(printf '  b')" 'X')"
