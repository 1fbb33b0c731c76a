package diagnostics_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/internal/lsp/lsptest"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/diagnostics"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

var fakels string

// TestMain builds the fake language server once (lsptest.Main).
func TestMain(m *testing.M) { lsptest.Main(m, &fakels) }

type env struct {
	root  *kernel.Context
	rt    *tools.Runtime
	dir   string
	s     *tools.Session
	diag  *kernel.Fiber
	calls int
}

type args = map[string]any

// newEnv composes fs-local, the observation policy, tools, tool-fs, tool-apply-patch and (unless
// cfg is nil) lsp-diagnostics over a fresh workspace.
func newEnv(t testing.TB, cfg *diagnostics.Config) *env {
	return newEnvIn(t, kerneltest.NewRoot(t), cfg)
}

// newEnvIn is newEnv in the kernel of root.
func newEnvIn(t testing.TB, root *kernel.Context, cfg *diagnostics.Config) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := &env{dir: dir, root: root, s: tools.NewSession("s")}
	e.s.SetHeader(tools.Header{Cwd: dir})
	load := func(m kernel.Module, cfg any) *kernel.Fiber {
		f := kerneltest.RequireLoad(t, e.root, m, cfg)
		kerneltest.RequireActive(t, f)
		return f
	}
	load(fslocal.Plugin, fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes})
	load(fspolicy.Plugin, nil)
	load(tools.Plugin, nil)
	load(toolfs.Plugin, nil)
	load(toolapplypatch.Plugin, nil)
	if cfg != nil {
		e.diag = load(diagnostics.Plugin, cfg)
		t.Cleanup(func() { _ = e.diag.Dispose() })
	}
	var ok bool
	e.rt, ok = tools.Service.Get(e.root)
	require.True(t, ok)
	return e
}

// fakeConfig is the default configuration with the fake server for *.fk files under a
// directory holding fake.root.
func fakeConfig(edit func(*diagnostics.Config)) *diagnostics.Config {
	cfg := diagnostics.DefaultConfig()
	cfg.Servers = map[string]diagnostics.ServerConfig{"fake": {
		Commands:    [][]string{{fakels}},
		Extensions:  map[string]string{".fk": "fake"},
		RootMarkers: []string{"fake.root"},
	}}
	if edit != nil {
		edit(&cfg)
	}
	return &cfg
}

func (e *env) call(name string, a args) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: a, Session: e.s})
}

func (e *env) ok(t testing.TB, name string, a args) tools.Result {
	t.Helper()
	r := e.call(name, a)
	require.False(t, r.IsError, "%s: %s", name, r.Text())
	return r
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) put(t testing.TB, name, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(e.path(name)), 0o755))
	require.NoError(t, os.WriteFile(e.path(name), []byte(text), 0o644))
}

// diagnosticsOf returns the block lsp-diagnostics appended ("" when none), after checking that
// the tool's own text came first and whole.
func diagnosticsOf(t *testing.T, r tools.Result) string {
	t.Helper()
	if len(r.Content) < 2 {
		return ""
	}
	require.NotContains(t, r.Content[0].Text, "Diagnostics (")
	last := r.Content[len(r.Content)-1]
	require.Equal(t, tools.ContentText, last.Type)
	return last.Text
}

func dur(d string) confint.Duration {
	v, err := time.ParseDuration(d)
	if err != nil {
		panic(err)
	}
	return confint.Duration(v)
}

func lines(s ...string) string { return strings.Join(s, "\n") }

// serverPIDs returns the fake servers whose working directory is dir ("" when none).
func serverPIDs(dir string) (string, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return "", err
	}
	var out []string
	for _, en := range entries {
		cwd, err := os.Readlink(filepath.Join("/proc", en.Name(), "cwd"))
		if err != nil || cwd != dir {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", en.Name(), "exe")); err == nil && filepath.Base(exe) == "fakels" {
			out = append(out, en.Name())
		}
	}
	return strings.Join(out, " "), nil
}
