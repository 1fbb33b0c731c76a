package diagnostics_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/diagnostics"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// fakeEnv is a workspace marked for the fake server with a.fk holding one old error.
func fakeEnv(t *testing.T, edit func(*diagnostics.Config)) *env {
	e := newEnv(t, fakeConfig(edit))
	e.put(t, "fake.root", "")
	e.put(t, "a.fk", "one\nERROR: old\nthree\n")
	e.put(t, "sibling.fk", "WARN: sibling's\n")
	e.ok(t, "read", args{"file_path": e.path("a.fk")})
	return e
}

func editA(t *testing.T, e *env, old, new string) tools.Result {
	return e.ok(t, "edit", args{"file_path": e.path("a.fk"), "old_string": old, "new_string": new})
}

// The edit's own text comes first and whole; the block after it names only the new problem, at
// its line, not the one that was there.
func TestAnEditReportsOnlyTheProblemItIntroduced(t *testing.T) {
	e := fakeEnv(t, nil)
	plain := newEnv(t, nil)
	plain.put(t, "a.fk", "one\nERROR: old\nthree\n")
	plain.ok(t, "read", args{"file_path": plain.path("a.fk")})
	want := plain.ok(t, "edit", args{"file_path": plain.path("a.fk"), "old_string": "three", "new_string": "three\nERROR: new"})

	r := editA(t, e, "three", "three\nERROR: new")
	require.Len(t, r.Content, len(want.Content)+1)
	assert.Equal(t, stripDir(want.Content[0].Text, plain.dir), stripDir(r.Content[0].Text, e.dir), "the tool's own text is unchanged")
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("a.fk")+":4:1: new (fake)",
	), diagnosticsOf(t, r))
	got, err := os.ReadFile(e.path("a.fk"))
	require.NoError(t, err)
	assert.Equal(t, "one\nERROR: old\nthree\nERROR: new\n", string(got))
}

func stripDir(s, dir string) string { return strings.ReplaceAll(s, dir, "<dir>") }

// A problem that only moved (lines inserted above it) is not new; the edit that removes one
// counts it as fixed; errors come before warnings.
func TestDeltaIsKeyedByMessageNotPosition(t *testing.T) {
	e := fakeEnv(t, nil)
	r := editA(t, e, "one\n", "zero\none\n")
	assert.Equal(t, "Diagnostics (fakels) of "+e.path("a.fk")+": no new problems from this change.", diagnosticsOf(t, r))

	r = editA(t, e, "three", "WARN: w\nERROR: e")
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 2 new problems from this change (1 error, 1 warning):",
		e.path("a.fk")+":5:1: e (fake)",
		e.path("a.fk")+":4:1: w (fake)",
	), diagnosticsOf(t, r))

	r = editA(t, e, "ERROR: old\n", "")
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": no new problems from this change.",
		"Fixed by this change: 1 problem.",
	), diagnosticsOf(t, r))
}

func TestANewFileWithAProblemIsReported(t *testing.T) {
	e := fakeEnv(t, nil)
	r := e.ok(t, "write", args{"file_path": e.path("sub/new.fk"), "content": "x\nERROR: fresh\n"})
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("sub/new.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("sub/new.fk")+":2:1: fresh (fake)",
	), diagnosticsOf(t, r))
}

func TestApplyPatchAndUndoAreChecked(t *testing.T) {
	e := fakeEnv(t, nil)
	patch := "*** Begin Patch\n*** Update File: " + e.path("a.fk") + "\n@@\n one\n-ERROR: old\n+ERROR: patched\n three\n*** End Patch"
	r := e.ok(t, "apply_patch", args{"input": patch})
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("a.fk")+":2:1: patched (fake)",
		"Fixed by this change: 1 problem.",
	), diagnosticsOf(t, r))
}

// A file of a language without a server gets the result it gets without the plugin.
func TestNoServerNoBlock(t *testing.T) {
	e := fakeEnv(t, nil)
	e.put(t, "notes.txt", "a\n")
	e.ok(t, "read", args{"file_path": e.path("notes.txt")})
	r := e.ok(t, "edit", args{"file_path": e.path("notes.txt"), "old_string": "a", "new_string": "ERROR: b"})
	assert.Len(t, r.Content, 1)
	// a .fk file under no root marker is not checked either
	outside := newEnv(t, fakeConfig(nil))
	r = outside.ok(t, "write", args{"file_path": outside.path("x.fk"), "content": "ERROR: x\n"})
	assert.Len(t, r.Content, 1)
}

// A built-in language whose program is not installed says nothing.
func TestMissingProgramSaysNothing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	e := newEnv(t, fakeConfig(nil))
	e.put(t, "go.mod", "module x\n")
	r := e.ok(t, "write", args{"file_path": e.path("x.go"), "content": "package x\nvar y int = \"s\"\n"})
	assert.Len(t, r.Content, 1)
}

// A problem the change makes in another file the server pushes a little after the changed file's
// own (gopls pushes a package's files in no set order) is still reported, once the pushes stop.
func TestAnOtherFilePushedAfterTheFileIsReported(t *testing.T) {
	t.Setenv("FAKELS_BURST", "80ms")
	e := fakeEnv(t, nil)
	e.ok(t, "read", args{"file_path": e.path("sibling.fk")})
	e.ok(t, "edit", args{"file_path": e.path("sibling.fk"), "old_string": "sibling's", "new_string": "sibling's own"})
	r := editA(t, e, "three", "BREAKS: sibling broken")
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("sibling.fk")+":1:1: sibling broken (fake)",
	), diagnosticsOf(t, r))
}

// A server slower than the wait: the result says the check is pending, the next call on the file
// (here a read) carries the late result.
func TestSlowServerIsPendingThenLate(t *testing.T) {
	t.Setenv("FAKELS_DELAY", "1500ms")
	e := fakeEnv(t, func(c *diagnostics.Config) { c.Wait = dur("300ms") })
	r := editA(t, e, "three", "ERROR: slow")
	assert.Equal(t, "Diagnostics (fakels) of "+e.path("a.fk")+": still checking after 300ms; the next call on this file carries the result.", diagnosticsOf(t, r))
	time.Sleep(4 * time.Second) // before and after: two pushes of 1.5s
	r = e.ok(t, "read", args{"file_path": e.path("a.fk")})
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from the earlier change to "+e.path("a.fk")+" (it came late) (1 error, 0 warnings):",
		e.path("a.fk")+":3:1: slow (fake)",
	), diagnosticsOf(t, r))
	r = e.ok(t, "read", args{"file_path": e.path("a.fk")})
	assert.Len(t, r.Content, 1, "a late result is told once")
}

// A server that crashes adds one line, and the edit lands; the next change starts it again after
// the back-off.
func TestCrashingServerAddsOneLine(t *testing.T) {
	t.Setenv("FAKELS_CRASH", "change") // the first check opens the text before, then changes it
	e := fakeEnv(t, func(c *diagnostics.Config) { c.RestartBackoff = dur("1h") })
	r := editA(t, e, "three", "ERROR: x")
	assert.Equal(t, "Diagnostics (fakels): unavailable: fakels exited (exit status 3); it starts again on a later change. The change is unaffected.", diagnosticsOf(t, r))
	assert.Equal(t, "one\nERROR: old\nERROR: x\n", mustRead(t, e.path("a.fk")))
	r = editA(t, e, "one", "uno")
	assert.Regexp(t, `^Diagnostics \(fakels\): unavailable: fakels exited \(exit status 3\); the next start is in (59m59\.\ds|1h0m0s)\. The change is unaffected\.$`, diagnosticsOf(t, r))
	assert.Equal(t, "uno\nERROR: old\nERROR: x\n", mustRead(t, e.path("a.fk")))
}

func TestServerThatFailsToStartAddsOneLine(t *testing.T) {
	t.Setenv("FAKELS_START_FAIL", "1")
	e := fakeEnv(t, nil)
	r := editA(t, e, "three", "3")
	assert.Regexp(t, `^Diagnostics \(fakels\): unavailable: fakels did not start \(initialize: .*\)\. The change is unaffected\.$`, diagnosticsOf(t, r))
	assert.Equal(t, "one\nERROR: old\n3\n", mustRead(t, e.path("a.fk")))
}

// The block fits the result budget: whole lines, then how many were left out.
func TestTheBlockFitsTheResultBudget(t *testing.T) {
	e := fakeEnv(t, func(c *diagnostics.Config) { c.ResultBudget = 400 })
	r := editA(t, e, "three", "ERROR: a1\nERROR: a2\nERROR: a3\nERROR: a4\nERROR: a5\nERROR: a6\nERROR: a7\nERROR: a8")
	total := len(r.Text())
	assert.LessOrEqual(t, total, 400)
	assert.Regexp(t, `\n\(\d+ more diagnostic lines left out: the result budget\)$`, diagnosticsOf(t, r))
}

// A pulling server (textDocument/diagnostic) works as a pushing one.
func TestPullingServer(t *testing.T) {
	t.Setenv("FAKELS_PULL", "1")
	e := fakeEnv(t, nil)
	r := editA(t, e, "three", "ERROR: pulled")
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("a.fk")+":3:1: pulled (fake)",
	), diagnosticsOf(t, r))
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
