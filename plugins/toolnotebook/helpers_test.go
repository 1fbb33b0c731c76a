package toolnotebook_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/toolnotebook"
	"github.com/cordon-dev/cordon/plugins/tools"
)

type args = map[string]any

// env composes fs-local, the observation policy, tools, tool-fs (for read), tool-notebook and
// fs-history over a fresh workspace.
type env struct {
	root    *kernel.Context
	rt      *tools.Runtime
	dir     string
	session *tools.Session
	calls   int
}

func newEnv(t *testing.T) *env { return newEnvUnder(t, "") }

// newEnvUnder is newEnv with fs-sandbox and sandbox-policy in mode (fs-local when "").
func newEnvUnder(t *testing.T, mode sandbox.Mode) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := &env{dir: dir, root: kerneltest.NewRoot(t), session: tools.NewSession("s1")}
	load := func(m kernel.Module, cfg any) {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, m, cfg))
	}
	if mode == "" {
		load(fslocal.Plugin, fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes})
	} else {
		load(sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: mode, WorkspaceRoot: dir})
		load(fssandbox.Plugin, nil)
		e.session.SetHeader(tools.Header{Cwd: dir})
	}
	load(fspolicy.Plugin, nil)
	load(tools.Plugin, nil)
	load(toolfs.Plugin, nil)
	load(toolnotebook.Plugin, nil)
	var hist fshistory.Config
	hist.Defaults()
	hist.Dir = filepath.Join(t.TempDir(), "history")
	load(fshistory.Plugin, &hist)
	var ok bool
	e.rt, ok = tools.Service.Get(e.root)
	require.True(t, ok)
	return e
}

func (e *env) call(name string, a args) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: a, Session: e.session})
}

func (e *env) ok(t *testing.T, name string, a args) tools.Result {
	t.Helper()
	r := e.call(name, a)
	require.False(t, r.IsError, "%s: %s", name, r.Text())
	return r
}

func (e *env) edit(a args) tools.Result { return e.call("notebook_edit", a) }

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

// file writes content to the workspace file name when given, and returns what the file holds.
func (e *env) file(t *testing.T, name string, content ...string) string {
	t.Helper()
	if len(content) > 0 {
		require.NoError(t, os.WriteFile(e.path(name), []byte(content[0]), 0o644))
	}
	b, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	return string(b)
}

// requireFailure fails unless r is a failure reading text, with code ("" = none).
func requireFailure(t *testing.T, r tools.Result, text, code string) {
	t.Helper()
	require.Equal(t, [3]any{true, text, code}, [3]any{r.IsError, r.Text(), r.Code()})
}

// notebookText is a small nbformat 4.5 notebook as nbformat writes it (cells intro001, code0002
// with a stream, an image and a result, code0003 with an error, raw00004).
func notebookText(t *testing.T) string {
	b, err := os.ReadFile("../../internal/notebook/testdata/tools.ipynb")
	require.NoError(t, err)
	return string(b)
}

// golden renders key of texts.json beside the plugin (read from disk, as the e2e scripts read it)
// with name, value pairs (docs/texts.md).
var golden = texts.MustLoad("texts.json").MustRender
