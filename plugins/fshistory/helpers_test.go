package fshistory_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

type env struct {
	root  *kernel.Context
	rt    *tools.Runtime
	dir   string // the workspace
	store string // the history directory
	hist  *kernel.Fiber
	calls int
}

type args = map[string]any

// newEnv composes fs-local, the observation policy, tools, tool-fs and (unless without) fs-history
// over a fresh workspace; edit changes cfg before it loads.
func newEnv(t *testing.T, without bool, edit func(*fshistory.Config)) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := &env{dir: dir, store: filepath.Join(t.TempDir(), "history")}
	e.root = kerneltest.NewRoot(t)
	load := func(m kernel.Module, cfg any) {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, m, cfg))
	}
	load(fslocal.Plugin, fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes})
	load(fspolicy.Plugin, nil)
	load(tools.Plugin, nil)
	load(toolfs.Plugin, nil)
	if !without {
		var cfg fshistory.Config
		cfg.Defaults()
		cfg.Dir = e.store
		if edit != nil {
			edit(&cfg)
		}
		e.hist = kerneltest.RequireLoad(t, e.root, fshistory.Plugin, &cfg)
		kerneltest.RequireActive(t, e.hist)
	}
	var ok bool
	e.rt, ok = tools.Service.Get(e.root)
	require.True(t, ok)
	return e
}

func (e *env) call(s *tools.Session, name string, a args) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: a, Session: s})
}

func (e *env) ok(t *testing.T, s *tools.Session, name string, a args) tools.Result {
	t.Helper()
	r := e.call(s, name, a)
	require.False(t, r.IsError, "%s: %s", name, r.Text())
	return r
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) records(t *testing.T) []history.Record {
	t.Helper()
	lg, ok := history.Service.Get(e.root)
	require.True(t, ok)
	recs, err := lg.Store.List(history.Match{}, nil)
	require.NoError(t, err)
	return recs
}

func readBytes(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

func modeOf(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	require.NoError(t, err)
	return fi.Mode()
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func (e *env) toolNames() []string {
	var n []string
	for _, d := range e.rt.List() {
		n = append(n, d.Name)
	}
	return n
}

// undoText renders key of the history's texts.json (read from disk, as the e2e scripts read it)
// with name, value pairs (docs/texts.md).
var undoText = texts.MustLoad("history/texts.json").MustRender

// anyTime stands for a change's time in undoPattern's values.
const anyTime = "\x00"

// undoPattern is key rendered with pairs as a regular expression: the text exactly, each value
// anyTime matching any RFC 3339 second.
func undoPattern(key string, pairs ...string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(undoText(key, pairs...)), anyTime, stamp)
}
