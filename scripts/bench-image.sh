#!/usr/bin/env bash
# bench-image.sh [BASE_HARNESS]: `read_image` of a 6000x4000 JPEG through `harness run`, next to
# sharp resizing the same file the same way (fit inside 2048 px, never enlarged, JPEG quality 85:
# what the attachment store produces for an opaque photo), each a whole process. The JPEG is a
# photo-like picture (gradients and noise, quality 90, 4:2:0) that sharp itself writes. The commands
# run alternated, RUNS (environment, default 7) rounds, so that the machine's load falls on all of
# them; the script prints, per command, the best and the median CPU time (user + system, from the
# kernel's accounting of the child) and wall time, and the ratio of the best CPU to sharp's. With
# BASE_HARNESS (a harness binary built from the commit a change starts from), it is run too.
# Needs node and npm: sharp 0.35.6 is installed once into $XDG_CACHE_HOME/cordon-bench-image
# (default ~/.cache). The harness's state (the attachment store) lives in a temporary directory,
# removed on exit; `read_image` commits the image durably, sharp only returns its bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
base=${1:-}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cordon-bench-image
sharp_version=0.35.6
if [ ! -f "$cache/node_modules/sharp/package.json" ] ||
	! grep -q "\"version\": \"$sharp_version\"" "$cache/node_modules/sharp/package.json"; then
	mkdir -p "$cache"
	(cd "$cache" && npm install --no-audit --no-fund --silent "sharp@$sharp_version" >/dev/null)
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
go build -o "$w/harness" ./cmd/harness
photo=$w/photo.jpg
cat >"$cache/make-photo.js" <<'JS'
// A 6000x4000 photo-like picture: three gradients with a little noise, JPEG quality 90.
const sharp = require("sharp");
const [w, h] = [6000, 4000];
const px = Buffer.alloc(w * h * 3);
let s = 7;
for (let y = 0; y < h; y++) {
  for (let x = 0; x < w; x++) {
    s = (s * 1103515245 + 12345) >>> 0;
    const n = (s >>> 16) & 7, i = 3 * (y * w + x);
    px[i] = ((x * 255) / (w - 1)) ^ n;
    px[i + 1] = ((y * 255) / (h - 1)) ^ n;
    px[i + 2] = (((x + y) * 255) / (w + h - 2)) ^ n;
  }
}
sharp(px, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90 }).toFile(process.argv[2]);
JS
cat >"$cache/resize.js" <<'JS'
// What read_image does to a large opaque photo: fit inside 2048 px, JPEG quality 85.
const sharp = require("sharp");
sharp(process.argv[2])
  .resize(2048, 2048, { fit: "inside", withoutEnlargement: true })
  .jpeg({ quality: 85 })
  .toBuffer()
  .then((b) => process.stdout.write(b.length + "\n"));
JS
NODE_PATH=$cache/node_modules node "$cache/make-photo.js" "$photo"
echo "uptime: $(uptime)"
python3 - "$w" "$photo" "$cache" "$runs" "$w/harness" $base <<'PY'
import json, os, statistics, subprocess, sys, time
w, photo, cache, runs, harnesses = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
call = (json.dumps({"id": 1, "tool": "read_image", "args": {"file_path": photo}}) + "\n").encode()
cmds = [("sharp " + "0.35.6", ["node", os.path.join(cache, "resize.js"), photo], None, {"NODE_PATH": os.path.join(cache, "node_modules")})]
for i, h in enumerate(harnesses):
    state = os.path.join(w, "state%d" % i)
    os.makedirs(state)
    name = "read_image" if i == 0 else "read_image (base %s)" % h
    cmds.append((name, [h, "run", "--cwd", w], call, {"XDG_STATE_HOME": state}))

def run_cpu(argv, stdin, env):
    r, wfd = os.pipe()
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.chdir(w)
        os.dup2(r, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        out = os.open(os.path.join(w, "out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(devnull, 2)
        os.close(wfd)
        os.execvpe(argv[0], argv, dict(os.environ, **env))
    os.close(r)
    if stdin:
        os.write(wfd, stdin)
    os.close(wfd)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if status != 0:
        sys.exit("%s failed: status %d" % (argv, status))
    return open(os.path.join(w, "out"), "rb").read(), wall, ru.ru_utime + ru.ru_stime

cpu = {c[0]: [] for c in cmds}
wall = {c[0]: [] for c in cmds}
for name, argv, stdin, env in cmds:  # once each: warm caches, check the result
    out, _, _ = run_cpu(argv, stdin, env)
    if stdin and b'"isError":false' not in out:
        sys.exit("%s failed: %s" % (name, out[:300]))
for _ in range(runs):
    for name, argv, stdin, env in cmds:
        _, wt, ct = run_cpu(argv, stdin, env)
        wall[name].append(wt)
        cpu[name].append(ct)
ref = min(cpu[cmds[0][0]])
for name, *_ in cmds:
    c, t = cpu[name], wall[name]
    print("%-24s cpu best %.3fs median %.3fs (%.2fx sharp)   wall best %.3fs median %.3fs" %
          (name, min(c), statistics.median(c), min(c) / ref, min(t), statistics.median(t)))
PY
