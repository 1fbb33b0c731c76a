package toolfs_test

// Contract cases of the file tools that no other test here pins (docs/conformance/toolfs.md maps
// them); each test states the behaviour it holds.

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Rejects a non-JSON numeric offset before tool-specific validation.
func TestReadNaNOffsetIsNotLossless(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.call("read", args{"file_path": "a.txt", "offset": math.NaN()})
	require.True(t, r.IsError)
	assert.Equal(t, "Error: tool execution arguments must be losslessly JSON-serializable", r.Text())
	assert.Empty(t, r.Code())
	assert.Empty(t, e.fsys.take())
}

// The out-of-range message prints the offset as requested, as a JavaScript number prints, also
// where the window saturates (past 2^53).
func TestReadOutOfRangeSpellsTheRequestedOffset(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "x\n")
	for _, tc := range []struct {
		offset float64
		text   string
	}{
		{2, "2"}, {1e9, "1000000000"}, {1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e300, "1.5e+300"},
	} {
		requireFailure(t, e.call("read", args{"file_path": "a.txt", "offset": tc.offset}),
			`Error: offset `+tc.text+` is out of range for "`+e.path("a.txt")+`" (1 lines)`, "FS_NOT_FOUND")
	}
}

// Streams a large file (size at/above the cap) instead of reading whole (the
// default readStreamMinSize, 10 MiB, faked through Stat) and "streams when the backend reports no
// size (never buffers a size-less file)". A whole read takes the charset from ReadText's outcome
// (one look at the file); a stream asks it first, for the envelope its window is sized by.
func TestReadStreamsAtDefaultCapOrUnknownSize(t *testing.T) {
	cases := []struct {
		name string
		hook func(*fs.Info)
		ops  []string
	}{
		{"just below the default cap", func(i *fs.Info) { i.Size = 10*1024*1024 - 1 }, []string{"readText"}},
		{"at the default cap", func(i *fs.Info) { i.Size = 10 * 1024 * 1024 }, []string{"textCharset", "streamText"}},
		{"no size", func(i *fs.Info) { i.Size, i.HasSize = 0, false }, []string{"textCharset", "streamText"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			e.fsys.statHook = tc.hook
			e.writeFile(t, "big.txt", "alpha\nbeta")
			r := e.call("read", args{"file_path": "big.txt"})
			requireOK(t, r)
			assert.Equal(t, envelope(e.path("big.txt"), "1: alpha\n2: beta\n\n"+endOf(2)), r.Text())
			assert.Equal(t, append([]string{"resolve", "stat"}, tc.ops...), e.fsys.take())
		})
	}
}

// Omits the lang hint in meta for an extension that maps to no language.
func TestReadMetaWithoutLang(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "notes", "plain")
	r := e.call("read", args{"file_path": "notes"})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("notes")+`","offset":1,"lines":[{"number":1,"text":"plain"}],"totalLines":1}`, metaJSON(t, r))
}

// Edit attaches the applied hunk as meta {diffs}; write attaches its hunk when it overwrites, and
// an empty diffs when it creates or overwrites with identical content (the meta only; hosts
// present it).
func TestMutationMetaCarriesTheHunks(t *testing.T) {
	const withContext = "a\nb\nc\nOLD\nd\ne\nf\n"
	const hunk = `{"diffs":[{"path":"a.txt","oldText":"a\nb\nc\nOLD\nd\ne\nf","newText":"a\nb\nc\nNEW\nd\ne\nf"}]}`

	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", withContext)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r := e.call("edit", args{"file_path": "a.txt", "old_string": "OLD", "new_string": "NEW"})
	requireOK(t, r)
	assert.JSONEq(t, hunk, metaJSON(t, r))

	e.writeFile(t, "a.txt", withContext)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r = e.call("write", args{"file_path": "a.txt", "content": "a\nb\nc\nNEW\nd\ne\nf\n"})
	requireOK(t, r)
	assert.JSONEq(t, hunk, metaJSON(t, r))

	r = e.call("write", args{"file_path": "new.txt", "content": "fresh\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"diffs":[]}`, metaJSON(t, r))

	e.writeFile(t, "same.txt", "same\n")
	requireOK(t, e.call("read", args{"file_path": "same.txt"}))
	r = e.call("write", args{"file_path": "same.txt", "content": "same\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"diffs":[]}`, metaJSON(t, r))
	assert.JSONEq(t, `{"path":"`+e.path("same.txt")+`","operation":"update","before":"same\n","after":"same\n"}`, valueJSON(t, r))
}

// A pre-aborted registry call skips read/write/edit with
// ABORTED_BEFORE_DISPATCH.
func TestPreAbortedCallsNeverRun(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "hello")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	aborted := func(name string, a args) {
		t.Helper()
		r := e.rt.Execute(cancelled, tools.Call{CallID: "c-" + name, Name: name, Args: a, Session: e.session})
		require.True(t, r.IsError)
		assert.Equal(t, "Error: tool call aborted before dispatch", r.Text())
		assert.Equal(t, &tools.ErrorInfo{Message: "tool call aborted before dispatch", Name: "AbortError", Code: "ABORTED_BEFORE_DISPATCH"}, r.Error)
	}
	aborted("read", args{"file_path": "a.txt"})
	aborted("write", args{"file_path": "new.txt", "content": "x"})
	_, err := os.Stat(e.path("new.txt"))
	assert.True(t, os.IsNotExist(err))
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	aborted("edit", args{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"})
	assert.Equal(t, "hello", e.readFile(t, "a.txt"))
	assert.Equal(t, []string{"resolve", "stat", "readText"}, e.fsys.take(), "only the unaborted read touched the provider")
}

// A stale observed version from an older read fails closed at edit CAS.
func TestOlderObservationFailsClosed(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "older content\n")
	ctx := context.Background()
	target, err := e.fsys.Resolve(ctx, "a.txt", fs.ResolveOptions{})
	require.NoError(t, err)
	first, err := e.fsys.Stat(ctx, target)
	require.NoError(t, err)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))

	e.writeFile(t, "a.txt", "newer current content\n")
	second, err := e.fsys.Stat(ctx, target)
	require.NoError(t, err)
	require.NotEqual(t, first.Version, second.Version)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))

	// An older concurrent read wins the observation race: last writer wins, the edit fails closed.
	require.NoError(t, fs.ObservedEvent.Emit(ctx, e.root, fs.ObservedArgs{Target: target, Observation: fs.Present(first.Version), Actor: &tools.Exec{Session: e.session}}))
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "newer", "new_string": "edited"}),
		`Error: cannot edit "`+e.path("a.txt")+`": file changed since it was read — re-read the file, then retry`, "FS_STALE_VERSION")
	assert.Equal(t, "newer current content\n", e.readFile(t, "a.txt"))
}

// A direct ctx.fs.readText records no observed-state, so a later edit
// rejects.
func TestDirectProviderReadRecordsNothing(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "hello world")
	ctx := context.Background()
	target, err := e.fsys.Resolve(ctx, "a.txt", fs.ResolveOptions{})
	require.NoError(t, err)
	_, err = e.fsys.ReadText(ctx, target)
	require.NoError(t, err)
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "world", "new_string": "there"}), notRead(e.path("a.txt")), "FS_NOT_OBSERVED")
	assert.Equal(t, "hello world", e.readFile(t, "a.txt"))
}

// In a bare deployment (no observation policy) write unconditionally creates a new file and read
// works.
func TestBareWriteCreatesAndReads(t *testing.T) {
	e := newEnv(t, envOptions{bare: true})
	r := e.call("write", args{"file_path": "new.txt", "content": "fresh"})
	requireOK(t, r)
	assert.Equal(t, created(e.path("new.txt"), 1), r.Text())
	assert.Equal(t, "fresh", e.readFile(t, "new.txt"))
	r = e.call("read", args{"file_path": "new.txt"})
	requireOK(t, r)
	assert.Contains(t, r.Text(), "1: fresh")
}

// The decided deviation (docs/fs.md): a leading BOM
// survives edit and write-over, and stays out of the values, the read output and the diffs.
func TestBOMPreservedThroughTheTools(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "b.txt", "\ufeffkeep me\n")
	r := e.call("read", args{"file_path": "b.txt"})
	requireOK(t, r)
	assert.Equal(t, envelope(e.path("b.txt"), "1: keep me\n\n"+endOf(1)), r.Text())
	r = e.call("edit", args{"file_path": "b.txt", "old_string": "keep", "new_string": "kept"})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("b.txt")+`","before":"keep me\n","after":"kept me\n"}`, valueJSON(t, r))
	assert.JSONEq(t, `{"diffs":[{"path":"b.txt","oldText":"keep me","newText":"kept me"}]}`, metaJSON(t, r))
	assert.Equal(t, "\ufeffkept me\n", e.readFile(t, "b.txt"))
	r = e.call("write", args{"file_path": "b.txt", "content": "rewritten\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("b.txt")+`","operation":"update","before":"kept me\n","after":"rewritten\n"}`, valueJSON(t, r))
	assert.Equal(t, "\ufeffrewritten\n", e.readFile(t, "b.txt"))
}

// Sandbox_permissions under a non-confining backend fails closed (unadvertised field
// still reaches execute), and the pairing rules of docs/tool-fs.md "Sandbox escalation", which run
// for every write and edit before any I/O.
func TestEscalationArgumentsUnderNonConfiningProvider(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "x")
	base := map[string]args{
		"write": {"file_path": "a.txt", "content": "y"},
		"edit":  {"file_path": "a.txt", "old_string": "x", "new_string": "y"},
	}
	cases := []struct {
		extra args
		text  string
	}{
		{args{"sandbox_permissions": "workspace-write", "justification": "why"}, "Error: sandbox_permissions is not available in this composition (no sandboxing filesystem to escalate)"},
		{args{"sandbox_permissions": "danger-full-access"}, "Error: invalid escalation: sandbox_permissions requires a justification"},
		{args{"justification": "why"}, "Error: invalid escalation: justification is only valid together with sandbox_permissions"},
		{args{"sandbox_permissions": "workspace-write", "justification": "  "}, "Error: invalid justification: expected a non-empty sentence"},
		{args{"sandbox_permissions": nil}, "Error: invalid escalation: sandbox_permissions requires a justification"},
	}
	for _, tool := range []string{"write", "edit"} {
		for _, tc := range cases {
			a := args{}
			for k, v := range base[tool] {
				a[k] = v
			}
			for k, v := range tc.extra {
				a[k] = v
			}
			requireFailure(t, e.call(tool, a), tc.text, "")
		}
	}
	assert.Empty(t, e.fsys.take(), "refused before any I/O")
	assert.Equal(t, "x", e.readFile(t, "a.txt"))
}

// The canonical value of a window that selects nothing keeps `lines: []` (never null), and the
// footer loops on the same offset (docs/tool-fs.md "The text the model sees").
func TestReadByteCapSelectingNothingValue(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ReadMaxBytes = 3
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "f.txt", "1\n2\n3\n4\nlong line\n")
	r := e.call("read", args{"file_path": "f.txt", "offset": 5})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("f.txt")+`","offset":5,"lines":[],"totalLines":5}`, valueJSON(t, r))
	assert.Equal(t, envelope(e.path("f.txt"), capped(5, 4)), r.Text())
}

// Observations belong to the session that made them (read + edit both
// resolve against the session cwd uses ONE session object for that reason): another session's
// read does not authorize an edit or an overwrite.
func TestObservationsAreOwnedBySession(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "hello")
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	other := tools.NewSession("other")
	requireFailure(t, e.callIn(other, "edit", args{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"}), notRead(e.path("a.txt")), "FS_NOT_OBSERVED")
	requireFailure(t, e.callIn(other, "write", args{"file_path": "a.txt", "content": "bye"}), notRead(e.path("a.txt")), "FS_NOT_OBSERVED")
	requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"}))
	assert.Equal(t, "bye", e.readFile(t, "a.txt"))
}

// A directory or a FIFO reports FS_NOT_REGULAR_FILE whatever the guard (docs/tool-fs.md "Errors
// of `write` and `edit`"), unremediated. Under the policy an unread edit is refused before the
// provider looks at the target (the contract's FS_NOT_OBSERVED), and since read refuses such a
// file, the line after it says so instead of leaving "read the file, then retry" alone; the FIFO
// is never opened for writing.
func TestMutationOfADirectory(t *testing.T) {
	for _, bare := range []bool{false, true} {
		e := newEnv(t, envOptions{bare: bare})
		require.NoError(t, os.Mkdir(e.path("d"), 0o755))
		require.NoError(t, unix.Mkfifo(e.path("fifo"), 0o644))
		for _, name := range []string{"d", "fifo"} {
			p := e.path(name)
			requireFailure(t, e.call("write", args{"file_path": name, "content": "x"}),
				`Error: cannot write "`+p+`": not a regular file`, "FS_NOT_REGULAR_FILE")
			edit := e.call("edit", args{"file_path": name, "old_string": "x", "new_string": "y"})
			if bare {
				requireFailure(t, edit, `Error: cannot edit "`+p+`": not a regular file`, "FS_NOT_REGULAR_FILE")
			} else {
				requireFailure(t, edit, notRead(p)+"\n"+notRegularGuidance, "FS_NOT_OBSERVED")
			}
		}
		st, err := os.Lstat(e.path("fifo"))
		require.NoError(t, err)
		assert.Equal(t, os.ModeNamedPipe, st.Mode().Type(), "the FIFO is left as it was")
	}
}

// docs/tools.md "Cancellation": a cancellation that lands after the body started replaces a
// successful write with `tool call aborted` (ABORTED), although the file is already written.
func TestCancellationAfterTheBodyReplacesSuccess(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	canceller := kernel.Module{ID: "canceller", Apply: func(kc *kernel.Context, _ any) error {
		_, err := fs.ObservedEvent.On(kc, func(context.Context, fs.ObservedArgs) error { cancel(); return nil })
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, canceller, nil))
	r := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "write", Args: args{"file_path": "w.txt", "content": "durable"}, Session: e.session})
	require.True(t, r.IsError)
	assert.Equal(t, "Error: tool call aborted", r.Text())
	assert.Equal(t, &tools.ErrorInfo{Message: "tool call aborted", Name: "AbortError", Code: "ABORTED"}, r.Error)
	assert.Equal(t, "durable", e.readFile(t, "w.txt"))
}
