#!/usr/bin/env bash
# run.sh runs the TypeScript SDK end-to-end flow and the model-view suite against harness serve (stdio),
# the HTTP flow against harness serve --http, and the MCP roots flow (roots.mjs).
# It skips (exit 0, with a clear message) when node or npm is missing; otherwise it installs the pinned
# client from the committed lockfile (npm ci), builds ./cmd/harness and fails on any mismatch.
#   bash e2e/run.sh          # flow
#   bash e2e/run.sh bench    # side-by-side benchmark and start-up time (not part of CI)
#   node e2e/abread.mjs BIN_A BIN_B    # server CPU per read of two builds, interleaved (see its header)
#   node e2e/decode.mjs /tmp/cordon-bench-*/recorded.json   # the client's decode cost per response
set -euo pipefail
src="${BASH_SOURCE[0]}"
[ "${src#*/}" = "$src" ] && src="./$src"
here="$(cd "${src%/*}" && pwd)"
root="$(cd "$here/.." && pwd)"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "e2e: SKIPPED: node/npm not found on PATH; the TypeScript SDK flow did not run"
  exit 0
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 18 ]; then
  echo "e2e: SKIPPED: node $(node --version) is older than 18; the TypeScript SDK flow did not run"
  exit 0
fi
# harness serve's default composition keeps its attachment store under the state directory.
export XDG_STATE_HOME="$(mktemp -d)"
bindir="$(mktemp -d)"
trap 'rm -rf "$XDG_STATE_HOME" "$bindir"' EXIT
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
bin="$bindir/harness"
(cd "$root" && go build -buildvcs=auto -o "$bin" ./cmd/harness)
case "${1:-flow}" in
  flow) HARNESS="$bin" node "$here/flow.mjs" && HARNESS="$bin" node "$here/modelview.mjs" && HARNESS="$bin" node "$here/http.mjs" && HARNESS="$bin" node "$here/roots.mjs" ;;
  bench) shift; HARNESS="$bin" node "$here/bench.mjs" "$@" ;;
  *) echo "usage: e2e/run.sh [flow|bench [--calls N] [--startups N]]" >&2; exit 2 ;;
esac
