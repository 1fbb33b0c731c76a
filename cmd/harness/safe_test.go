package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/spill"
)

// spillDirOf replaces, in s, the spill directory of the harness process that wrote s (where the
// search tools save over-cap results: a read-only root of the default, one per process) with
// "SPILL", so the test can compare the rest.
func spillDirOf(t *testing.T, s string) string {
	t.Helper()
	base, err := spill.DefaultDir(os.LookupEnv)
	require.NoError(t, err)
	re := regexp.MustCompile(regexp.QuoteMeta(base) + `/p-[0-9a-f]{16}`)
	require.Regexp(t, re, s, "the spill directory is one of its own for the process")
	return re.ReplaceAllString(s, "SPILL")
}

// A search result too long to show names the file it was saved in; under the default that file
// is readable by the process that saved it (its spill directory is a read-only root), though it
// lies outside the workspace, and by no other process: another workspace's server refuses it.
func TestSafeDefaultSpilledResultIsReadable(t *testing.T) {
	w := newEscapeWorld(t)
	for i := range 120 {
		writeFile(t, filepath.Join(w.ws, fmt.Sprintf("f%03d.go", i)), "package x\n")
	}
	other := filepath.Join(w.base, "other")
	require.NoError(t, mkdir(other))
	a, b := startWire(t, "--cwd", w.ws), startWire(t, "--cwd", other)
	a.initialize("2025-06-18")
	b.initialize("2025-06-18")
	a.send(callLine("1", "glob", map[string]any{"pattern": "*.go"}))
	text := wireText(t, a.recv())
	m := regexp.MustCompile(`Full result stored at: (\S+)\. `).FindStringSubmatch(text)
	require.NotNil(t, m, text)
	a.send(callLine("2", "read", map[string]any{"file_path": m[1]}))
	assert.Contains(t, wireText(t, a.recv()), "f000.go")
	b.send(callLine("2", "read", map[string]any{"file_path": m[1]}))
	denied := wireText(t, b.recv())
	assert.Contains(t, denied, "outside the workspace roots", "another process's spill directory is not a root")
	assert.NotContains(t, denied, "f000.go")
}

// The safe default (docs/sandbox.md "Roots"): with no --config and no --profile every tool reads
// and writes only beneath the workspace roots. These tests run the real binary.

const outsideSecret = "SECRET-OUTSIDE-THE-WORKSPACE"

// escapeWorld is a workspace ws beside a directory out that no root names, with a secret file,
// an image, symlinks out (to the file and to the directory) and a hard link to the secret inside ws.
type escapeWorld struct{ base, ws, out string }

func newEscapeWorld(t *testing.T) escapeWorld {
	t.Helper()
	base := realTemp(t)
	w := escapeWorld{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out")}
	require.NoError(t, mkdir(w.ws))
	require.NoError(t, mkdir(w.out))
	writeFile(t, filepath.Join(w.out, "secret.txt"), outsideSecret+"\n")
	var png bytes.Buffer
	require.NoError(t, pngEncode(&png))
	require.NoError(t, os.WriteFile(filepath.Join(w.out, "img.png"), png.Bytes(), 0o644))
	writeFile(t, filepath.Join(w.ws, "inside.txt"), "inside\n")
	require.NoError(t, os.Symlink(filepath.Join(w.out, "secret.txt"), filepath.Join(w.ws, "file-link")))
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "dir-link")))
	require.NoError(t, os.Link(filepath.Join(w.out, "secret.txt"), filepath.Join(w.ws, "hard-link")))
	return w
}

func pngEncode(b *bytes.Buffer) error { return png.Encode(b, image.NewGray(image.Rect(0, 0, 1, 1))) }

// outsideState is every file under out with its content, to compare before and after.
func (w escapeWorld) outsideState(t *testing.T) map[string]string {
	t.Helper()
	st := map[string]string{}
	require.NoError(t, filepath.Walk(w.out, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			st[p] = string(b)
		}
		return nil
	}))
	return st
}

type toolCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// corpus is every way out, for every tool: an absolute path out, "..", a symlinked file and
// directory, /proc/self/root and /proc/self/cwd, and the hard link (which names a file inside:
// reading it is allowed, writing it is refused and never changes the file out).
func (w escapeWorld) corpus() []toolCall {
	secret := filepath.Join(w.out, "secret.txt")
	ways := []string{
		secret,
		"../out/secret.txt",
		filepath.Join(w.ws, "..", "out", "secret.txt"),
		"file-link",
		"dir-link/secret.txt",
		"/proc/self/root" + secret,
		"/proc/self/cwd/../out/secret.txt",
	}
	dirs := []string{w.out, "..", "dir-link", "/proc/self/root" + w.out, w.base}
	var calls []toolCall
	for _, p := range ways {
		calls = append(calls,
			toolCall{"read", map[string]any{"file_path": p}},
			toolCall{"read_image", map[string]any{"file_path": strings.Replace(p, "secret.txt", "img.png", 1)}},
			toolCall{"write", map[string]any{"file_path": p, "content": "pwned\n"}},
			toolCall{"write", map[string]any{"file_path": strings.Replace(p, "secret.txt", "new.txt", 1), "content": "pwned\n"}},
			toolCall{"edit", map[string]any{"file_path": p, "old_string": "SECRET", "new_string": "pwned"}},
			toolCall{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: " + p + "\n@@\n-" + outsideSecret + "\n+pwned\n*** End Patch"}},
			toolCall{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Add File: " + strings.Replace(p, "secret.txt", "added.txt", 1) + "\n+pwned\n*** End Patch"}},
			toolCall{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Delete File: " + p + "\n*** End Patch"}},
			toolCall{"undo", map[string]any{"file_path": p}},
			toolCall{"grep", map[string]any{"pattern": "SECRET", "path": p}},
		)
	}
	for _, d := range dirs {
		calls = append(calls,
			toolCall{"glob", map[string]any{"pattern": "**", "path": d}},
			toolCall{"grep", map[string]any{"pattern": "SECRET", "path": d}},
			toolCall{"read", map[string]any{"file_path": d}},
		)
	}
	// From inside: the search of the workspace must not follow the links out.
	calls = append(calls,
		toolCall{"glob", map[string]any{"pattern": "**"}},
		toolCall{"grep", map[string]any{"pattern": "SECRET", "include": "file-link"}},
		toolCall{"grep", map[string]any{"pattern": "SECRET", "path": "dir-link"}},
		// The hard link names a file inside: read serves it; write refuses to split the links
		// (docs/tool-fs.md), so the file out keeps its bytes.
		toolCall{"read", map[string]any{"file_path": "hard-link"}},
		toolCall{"write", map[string]any{"file_path": "hard-link", "content": "replaced\n"}},
	)
	return calls
}

// corpusLines is the corpus as JSON lines for `harness run`.
func corpusLines(t *testing.T, calls []toolCall) string {
	t.Helper()
	var b strings.Builder
	for _, c := range calls {
		line, err := json.Marshal(c)
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// leaked reports whether a tool's answer carries the secret; the hard link's read is the one
// answer allowed to (it names a file inside the workspace).
func leaked(c toolCall, answer string) bool {
	if c.Tool == "read" && c.Args["file_path"] == "hard-link" {
		return false
	}
	return strings.Contains(answer, outsideSecret)
}

func TestSafeDefaultEscapeCorpusRun(t *testing.T) {
	w := newEscapeWorld(t)
	before := w.outsideState(t)
	calls := w.corpus()
	out, stderr, code := runHarness(t, corpusLines(t, calls), "run", "--cwd", w.ws, "--approve", "allow-once")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, len(calls))
	denied := 0
	for i, line := range lines {
		assert.False(t, leaked(calls[i], line), "%v leaked: %s", calls[i], line)
		var r struct {
			Text string  `json:"text"`
			Code *string `json:"code"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		if r.Code != nil && *r.Code == "FS_SANDBOX_DENIED" {
			denied++
			assert.True(t, strings.HasPrefix(r.Text, "Error: [sandbox: file access denied under workspace-write mode]\n"), "%v: %s", calls[i], r.Text)
		}
		if (calls[i].Tool == "glob" || calls[i].Tool == "grep") && calls[i].Args["path"] == w.out {
			assert.Equal(t, "FS_SANDBOX_DENIED", *r.Code, "a search outside is the sandbox's denial: %s", r.Text)
		}
	}
	assert.Positive(t, denied)
	assert.Equal(t, before, w.outsideState(t), "nothing out was written")
	t.Logf("run: %d escape attempts, 0 bytes read or written outside", len(calls))
}

func TestSafeDefaultEscapeCorpusServe(t *testing.T) {
	w := newEscapeWorld(t)
	before := w.outsideState(t)
	cs, stderr := serve(t, "--cwd", w.ws)
	calls := w.corpus()
	for _, c := range calls {
		res := call(t, cs, c.Tool, c.Args)
		assert.False(t, leaked(c, text(res)), "%v leaked: %s", c, text(res))
	}
	assert.Equal(t, before, w.outsideState(t), "nothing out was written: %s", stderr.String())
	t.Logf("serve: %d escape attempts, 0 bytes read or written outside", len(calls))
}

// A workspace that is itself a symlink is confined to what it names.
func TestSafeDefaultRootThatIsASymlink(t *testing.T) {
	w := newEscapeWorld(t)
	alias := filepath.Join(w.base, "alias")
	require.NoError(t, os.Symlink(w.ws, alias))
	calls := []toolCall{
		{"read", map[string]any{"file_path": "inside.txt"}},
		{"read", map[string]any{"file_path": "../out/secret.txt"}},
		{"write", map[string]any{"file_path": "made.txt", "content": "ok\n"}},
	}
	out, stderr, code := runHarness(t, corpusLines(t, calls), "run", "--cwd", alias)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3)
	assert.Contains(t, lines[0], "inside")
	assert.Contains(t, lines[1], "FS_SANDBOX_DENIED")
	assert.NotContains(t, lines[1], outsideSecret)
	assert.Contains(t, lines[2], `"isError":false`)
	assert.Equal(t, "ok\n", readFile(t, filepath.Join(w.ws, "made.txt")))
}

func TestSafeDefaultRootsFlags(t *testing.T) {
	w := newEscapeWorld(t)
	ro, rw := filepath.Join(w.base, "ro"), filepath.Join(w.base, "rw")
	require.NoError(t, mkdir(ro))
	require.NoError(t, mkdir(rw))
	writeFile(t, filepath.Join(ro, "r.txt"), "read-only\n")
	calls := []toolCall{
		{"read", map[string]any{"file_path": filepath.Join(ro, "r.txt")}},
		{"write", map[string]any{"file_path": filepath.Join(ro, "w.txt"), "content": "x\n"}},
		{"write", map[string]any{"file_path": filepath.Join(rw, "w.txt"), "content": "x\n"}},
		{"write", map[string]any{"file_path": filepath.Join(os.TempDir(), "cordon-safe-test-not-a-root.txt"), "content": "x\n"}},
	}
	out, stderr, code := runHarness(t, corpusLines(t, calls), "run", "--cwd", w.ws, "--read-only-root", ro, "--root", rw)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	assert.Contains(t, lines[0], "read-only")
	assert.Contains(t, lines[1], "FS_SANDBOX_DENIED", "a read-only root is never written")
	assert.Contains(t, lines[2], `"isError":false`)
	assert.Contains(t, lines[3], "FS_SANDBOX_DENIED", "the temp directory is not a root unless named")
	assert.NoFileExists(t, filepath.Join(ro, "w.txt"))
	// Start-up names the mode and the roots.
	assert.Contains(t, stderr, `"mode": "workspace-write"`)
	assert.Contains(t, stderr, `"writable": ["`+w.ws+`", "`+rw+`"]`)
	assert.Contains(t, spillDirOf(t, stderr), `"readable": ["`+w.ws+`", "`+rw+`", "`+ro+`", "SPILL"]`)

	// A root that is / or the home directory needs --allow-broad-root; a missing one fails the start.
	_, stderr, code = runHarness(t, "", "run", "--cwd", "/")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "--cwd / is the file system root")
	assert.Contains(t, stderr, "--allow-broad-root")
	_, stderr, code = runHarness(t, "", "run", "--cwd", w.ws, "--read-only-root", "/")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "root / is the file system root")
	_, stderr, code = runHarness(t, "", "run", "--cwd", "/", "--allow-broad-root")
	assert.Equal(t, 0, code, stderr)
	missing := filepath.Join(w.base, "missing")
	_, stderr, code = runHarness(t, "", "run", "--cwd", w.ws, "--root", missing)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "root "+missing)
	_, stderr, code = runHarness(t, "", "run", "--cwd", w.ws, "--root", filepath.Join(w.ws, "inside.txt"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "not a directory")

	// The reference's composition is one flag away, with a warning.
	out, stderr, code = runHarness(t, corpusLines(t, calls[:1]), "run", "--cwd", w.ws, "--profile", "unconfined")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "no confinement")
	assert.Contains(t, out, "read-only")
}

// A denial offers an escalation only where an approval channel exists; otherwise it says how the
// user widens the roots. Either way it names the path and the roots.
func TestSafeDefaultDenialText(t *testing.T) {
	w := newEscapeWorld(t)
	target := filepath.Join(w.out, "new.txt")
	lines := corpusLines(t, []toolCall{{"write", map[string]any{"file_path": target, "content": "x\n"}}})
	var res struct {
		Text string `json:"text"`
	}
	out, stderr, code := runHarness(t, lines, "run", "--cwd", w.ws)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.True(t, strings.HasPrefix(res.Text, "Error: [sandbox: file access denied under workspace-write mode]\n"), res.Text)
	assert.NotContains(t, res.Text, "escalation available", "no --approve: nobody could answer")
	assert.Contains(t, res.Text, target)
	assert.Contains(t, res.Text, "\n  "+w.ws)
	assert.Contains(t, res.Text, "--root DIR")

	out, stderr, code = runHarness(t, lines, "run", "--cwd", w.ws, "--approve", "reject")
	require.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Contains(t, res.Text, "[sandbox: escalation available")
	assert.Contains(t, res.Text, target)
	assert.NotContains(t, res.Text, "--root DIR")
	assert.NoFileExists(t, target)
}
