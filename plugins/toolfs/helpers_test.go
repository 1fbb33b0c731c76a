package toolfs_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	toolTexts "github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/require"
)

// recordingFS wraps a provider and records the primitives the tools call, in order.
type recordingFS struct {
	fs.FileSystem
	mu        sync.Mutex
	ops       []string
	lastGuard fs.Version
	// statHook, when set, rewrites what Stat reports (a backend without sizes, a huge size).
	statHook func(*fs.Info)
}

var _ fs.FileSystem = (*recordingFS)(nil)

func (r *recordingFS) record(op string) {
	r.mu.Lock()
	r.ops = append(r.ops, op)
	r.mu.Unlock()
}

// take returns and clears the recorded operations.
func (r *recordingFS) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.ops
	r.ops = nil
	return out
}

// count returns how many times op was recorded (without clearing).
func (r *recordingFS) count(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, o := range r.ops {
		if o == op {
			n++
		}
	}
	return n
}

func (r *recordingFS) Resolve(ctx context.Context, p string, o fs.ResolveOptions) (fs.Target, error) {
	r.record("resolve")
	return r.FileSystem.Resolve(ctx, p, o)
}

func (r *recordingFS) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	r.record("stat")
	info, err := r.FileSystem.Stat(ctx, t)
	if info != nil && r.statHook != nil {
		r.statHook(info)
	}
	return info, err
}

// Glob forwards to the provider's search (the closest names of a missing path, readguide.go).
func (r *recordingFS) Glob(ctx context.Context, root fs.Target, q fs.GlobQuery) (fs.GlobResult, error) {
	r.record("glob")
	return r.FileSystem.(fs.Searcher).Glob(ctx, root, q)
}

// Grep forwards to the provider's search.
func (r *recordingFS) Grep(ctx context.Context, root fs.Target, q fs.GrepQuery, emit func(fs.LineMatch) error) (fs.GrepResult, error) {
	return r.FileSystem.(fs.Searcher).Grep(ctx, root, q, emit)
}

// statTextFS is recordingFS with fs.StatReader, as a provider that reads a small file in its look.
type statTextFS struct{ *recordingFS }

func (s statTextFS) StatText(ctx context.Context, t fs.Target, below int64) (*fs.Info, *fs.ReadOutcome, error) {
	s.record("statText(" + strconv.FormatInt(below, 10) + ")")
	return s.FileSystem.(fs.StatReader).StatText(ctx, t, below)
}

func (r *recordingFS) ReadText(ctx context.Context, t fs.Target) (fs.ReadOutcome, error) {
	r.record("readText")
	return r.FileSystem.ReadText(ctx, t)
}

func (r *recordingFS) StreamText(ctx context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	r.record("streamText")
	return r.FileSystem.StreamText(ctx, t)
}

func (r *recordingFS) WriteText(ctx context.Context, t fs.Target, c string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	if i == nil {
		r.record("writeText(nil)")
	} else {
		r.record("writeText(" + string(i.Kind) + ")")
	}
	return r.FileSystem.WriteText(ctx, t, c, i)
}

func (r *recordingFS) EditText(ctx context.Context, t fs.Target, e fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	if g == nil {
		r.record("editText(nil)")
	} else {
		r.record("editText(guard)")
		r.mu.Lock()
		r.lastGuard = g.Version
		r.mu.Unlock()
	}
	return r.FileSystem.EditText(ctx, t, e, g)
}

// env is a kernel with a recording fs-local provider, optionally the observation policy, the
// tools runtime and tool-fs.
type env struct {
	root    *kernel.Context
	rt      *tools.Runtime
	fsys    *recordingFS
	dir     string
	session *tools.Session
	toolFs  *kernel.Fiber
	calls   int
}

type envOptions struct {
	bare      bool               // no fs-observation-policy
	config    *toolfs.Config     // nil: defaults
	staleness fspolicy.Staleness // "": the policy's default
	statText  bool               // the provider reads in its look (fs.StatReader: statTextFS)
}

func newEnv(t *testing.T, opt envOptions) *env {
	t.Helper()
	root, rec, dir := newBaseWith(t, opt)
	var cfg any
	if opt.config != nil {
		cfg = *opt.config
	}
	f := kerneltest.RequireLoad(t, root, toolfs.Plugin, cfg)
	kerneltest.RequireActive(t, f)
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	rec.take()
	return &env{root: root, rt: rt, fsys: rec, dir: dir, session: tools.NewSession("s1"), toolFs: f}
}

// newBase loads the recording provider over a fresh directory, the policy (unless bare) and the
// tools runtime.
func newBase(t *testing.T, bare bool) (*kernel.Context, *recordingFS, string) {
	t.Helper()
	return newBaseWith(t, envOptions{bare: bare})
}

// newBaseWith is newBase with the options' policy (bare, staleness) and provider (statText).
func newBaseWith(t *testing.T, opt envOptions) (*kernel.Context, *recordingFS, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := kerneltest.NewRoot(t)
	rec := &recordingFS{}
	provider := kernel.Module{ID: "recording-fs", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}, kc.Logger())
		if err != nil {
			return err
		}
		rec.FileSystem = p
		var provided fs.FileSystem = rec
		if opt.statText {
			provided = statTextFS{rec}
		}
		_, err = fs.Service.Provide(kc, provided)
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, provider, nil))
	if !opt.bare {
		var cfg any
		if opt.staleness != "" {
			cfg = fspolicy.Config{Staleness: opt.staleness}
		}
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, cfg))
	}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	return root, rec, dir
}

// call runs a tool in the env's session.
func (e *env) call(name string, args any) tools.Result {
	return e.callIn(e.session, name, args)
}

// callIn runs a tool in session s (nil: no agent session).
func (e *env) callIn(s *tools.Session, name string, args any) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "call-" + strconv.Itoa(e.calls), Name: name, Args: args, Session: s})
}

// path returns the absolute path of name in the provider's directory.
func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) writeFile(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(e.path(name), []byte(content), 0o644))
}

func (e *env) readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	return string(b)
}

type args = map[string]any

// requireOK fails unless r succeeded.
func requireOK(t *testing.T, r tools.Result) {
	t.Helper()
	if r.IsError {
		t.Fatalf("unexpected failure: %s (code %q)", r.Text(), r.Code())
	}
}

// requireFailure fails unless r failed with exactly text and code ("" = no code). A sandbox
// denial under workspace-write (text is denial(...)) may go on with the lines that name the path
// and the roots (docs/tool-fs.md "Sandbox escalation"; TestConfiningMapError pins them).
func requireFailure(t *testing.T, r tools.Result, text, code string) {
	t.Helper()
	require.True(t, r.IsError, "expected a failure, got %s", r.Text())
	if strings.HasPrefix(text, "Error: [sandbox: file access denied under workspace-write mode]\n") && strings.HasPrefix(r.Text(), text+"\ncannot write ") {
		text += r.Text()[len(text):]
	}
	require.Equal(t, text, r.Text())
	require.Len(t, r.Content, 1)
	require.Equal(t, code, r.Code())
	if code != "" {
		require.Equal(t, fs.ErrorName, r.Error.Name)
	}
}

// requireEscalationFailure fails unless r failed with exactly text and, when code is set, the
// {SandboxEscalationError, code} of a refused escalation (code "": an uncoded failure).
func requireEscalationFailure(t *testing.T, r tools.Result, text, code string) {
	t.Helper()
	require.True(t, r.IsError, "expected a failure, got %s", r.Text())
	require.Equal(t, text, r.Text())
	require.Equal(t, code, r.Code())
	if code != "" {
		require.Equal(t, sandbox.EscalationErrorName, r.Error.Name)
	}
}

// metaJSON returns the presentation meta as JSON text.
func metaJSON(t *testing.T, r tools.Result) string {
	t.Helper()
	b, err := json.Marshal(r.Meta)
	require.NoError(t, err)
	return string(b)
}

// valueJSON returns the canonical value as JSON text.
func valueJSON(t *testing.T, r tools.Result) string {
	t.Helper()
	b, err := json.Marshal(r.Value)
	require.NoError(t, err)
	return string(b)
}

// notRegularGuidance is the second line of an FS_NOT_OBSERVED over a directory, a FIFO or a device
// (docs/fs.md "A file no tool can read").
const notRegularGuidance = "It is not a regular file (a directory, a FIFO or a device): read cannot show it and edit cannot change it."

// charsetGuidance is the second line of an `invalid UTF-8 text` refusal (docs/encodings.md).
const charsetGuidance = "If it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig."

// TextCharset passes the provider's charset answer through (fs-local's optional method),
// recorded: a whole read takes the charset from ReadText's outcome and never asks it.
func (r *recordingFS) TextCharset(ctx context.Context, t fs.Target) string {
	r.record("textCharset")
	if n, ok := r.FileSystem.(interface {
		TextCharset(context.Context, fs.Target) string
	}); ok {
		return n.TextCharset(ctx, t)
	}
	return ""
}

func sp(s string) *string { return &s }

// description is tool's description as texts.json beside the plugin holds it (the one place it is
// written).
func description(t *testing.T, tool string) string {
	t.Helper()
	return goldenSet().Raw(tool + ".description")
}

// goldenSet is texts.json beside the plugin, as the e2e scripts read it: the texts the tests
// assert, rendered with their values (docs/texts.md). It is embedded in the test binary, so the
// tests that run as another user, away from the source tree (scripts/check), read it too.
var goldenSet = sync.OnceValue(func() toolTexts.Set { return toolTexts.MustParse("texts.json", goldenJSON) })

//go:embed texts.json
var goldenJSON []byte

// golden renders key of texts.json with name, value pairs; a missing or unused value panics.
func golden(key string, pairs ...string) string { return goldenSet().MustRender(key, pairs...) }

// envelope is a read's text: the envelope around body.
func envelope(path, body string) string { return golden("read.envelope", "path", path, "body", body) }

// endOf is the footer of a window that reaches the end of a file of total lines.
func endOf(total int) string { return golden("read.footer.end", "total", strconv.Itoa(total)) }

// showing is the footer of a window offset..end of total lines that stops at its limit.
func showing(offset, end, total int) string {
	return golden("read.footer.window", "offset", strconv.Itoa(offset), "end", strconv.Itoa(end),
		"total", strconv.Itoa(total), "next", strconv.Itoa(end+1))
}

// capped is the footer of a window offset..end that the byte cap or the result budget stopped.
func capped(offset, end int) string {
	return golden("read.footer.capped", "offset", strconv.Itoa(offset), "end", strconv.Itoa(end), "next", strconv.Itoa(end+1))
}

// truncatedTo is the notice a line cut to n code points ends with.
func truncatedTo(n int) string { return golden("read.line.truncated", "chars", strconv.Itoa(n)) }

// linesText spells a number of lines as write's counts do.
func linesText(n int) string {
	if n == 1 {
		return golden("lines.one")
	}
	return golden("lines.many", "n", strconv.Itoa(n))
}

// created is write's text for a new file of n lines.
func created(path string, n int) string {
	return golden("write.success", "envelope", envelope(path, golden("write.created")),
		"counts", golden("write.counts.new", "lines", linesText(n)))
}

// updated is write's text for a file of before lines replaced by n (before < 0: not known).
func updated(path string, n, before int) string {
	counts := golden("write.counts.replaced", "lines", linesText(n), "before", linesText(before))
	if before < 0 {
		counts = golden("write.counts.unknown", "lines", linesText(n))
	}
	return golden("write.success", "envelope", envelope(path, golden("write.updated")), "counts", counts)
}

// edited is edit's text for path, and for a replace_all, followed by the note it gains.
func edited(path string) string { return golden("edit.success", "path", path) }

func editedAll(path, replaced string) string {
	return golden("edit.success.replace_all", "path", path, "replaced", replaced)
}

// argError is the failure text of a tool's own argument error key of texts.json.
func argError(key string, pairs ...string) string { return "Error: " + golden(key, pairs...) }

// matchesAt is the ambiguous edit's line that lists where old_string matched (one line or several,
// as list spells them).
func matchesAt(list string, several bool) string {
	if several {
		return golden("edit.next.matches_at.lines", "list", list)
	}
	return golden("edit.next.matches_at.line", "list", list)
}
