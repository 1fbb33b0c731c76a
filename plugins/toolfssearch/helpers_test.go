package toolfssearch_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

type env struct {
	root    *kernel.Context
	rt      *tools.Runtime
	dir     string // the session cwd (physical)
	state   string // $XDG_STATE_HOME
	session *tools.Session
	logs    *observer.ObservedLogs
	calls   int
}

// newEnv composes fs-local (cwd = a new directory), the tools runtime and tool-fs-search with cfg
// (nil: defaults); wrap, when set, wraps the provider.
func newEnv(t *testing.T, cfg *toolfssearch.Config, wrap func(fs.FileSystem) fs.FileSystem) *env {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	state := filepath.Join(home, "state")
	t.Setenv("XDG_STATE_HOME", state)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	provider := kernel.Module{ID: "test-fs", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(fslocal.Config{Cwd: dir}, kc.Logger())
		if err != nil {
			return err
		}
		var fsys fs.FileSystem = p
		if wrap != nil {
			fsys = wrap(p)
		}
		_, err = fs.Service.Provide(kc, fsys)
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, provider, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	var c any
	if cfg != nil {
		c = *cfg
	}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfssearch.Plugin, c))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: dir})
	return &env{root: root, rt: rt, dir: dir, state: state, session: s, logs: logs}
}

func (e *env) call(name string, args any) tools.Result {
	return e.callCtx(context.Background(), name, args)
}

func (e *env) callCtx(ctx context.Context, name string, args any) tools.Result {
	e.calls++
	return e.rt.Execute(ctx, tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: args, Session: e.session})
}

// write creates dir/rel with content and a modification time of base+age seconds (newer for a
// larger age).
func (e *env) write(t *testing.T, rel, content string, age int) {
	t.Helper()
	p := filepath.Join(e.dir, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	ts := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(age) * time.Second)
	require.NoError(t, os.Chtimes(p, ts, ts))
}

func cfgWith(edit func(*toolfssearch.Config)) *toolfssearch.Config {
	c := toolfssearch.DefaultConfig()
	edit(&c)
	return &c
}

func requireText(t *testing.T, r tools.Result, want string) {
	t.Helper()
	require.False(t, r.IsError, r.Text())
	require.Equal(t, want, r.Text())
}

func requireError(t *testing.T, r tools.Result, text, name, code string) {
	t.Helper()
	require.True(t, r.IsError, r.Text())
	require.Equal(t, "Error: "+text, r.Text())
	require.Equal(t, code, r.Code())
	if code != "" {
		require.Equal(t, name, r.Error.Name)
	}
}

func toolsHeader(cwd string) tools.Header { return tools.Header{Cwd: cwd} }

// golden renders key of texts.json beside the plugin (read from disk, as the e2e scripts read it)
// with name, value pairs (docs/texts.md).
//
// snippet: docs/texts.md golden
var golden = texts.MustLoad("texts.json").MustRender

// end snippet

// found is grep's header for n matches, all shown; foundOf for shown of total.
func found(n int) string {
	if n == 1 {
		return golden("grep.found.one")
	}
	return golden("grep.found.many", "n", strconv.Itoa(n))
}

func foundOf(shown, total int) string {
	return golden("grep.found.capped", "shown", strconv.Itoa(shown), "total", strconv.Itoa(total))
}
