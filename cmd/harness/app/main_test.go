package app_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// mainRun runs the command line in process and returns stdout, stderr and the exit status.
func mainRun(t *testing.T, stdin string, args []string, opts ...app.Option) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	opts = append(opts, app.WithIO(strings.NewReader(stdin), &out, &errb))
	code := app.MainContext(context.Background(), args, opts...)
	return out.String(), errb.String(), code
}

var noop = kernel.Define[struct{}]("noop", func(*kernel.Context, struct{}) error { return nil })

func TestWithModulesAndEntries(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := mainRun(t, "", []string{"config", "--cwd", dir},
		app.WithModules(noopModule), app.WithEntries(app.MustEntry("noop", nil)))
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasSuffix(out, "  - id: noop # active\n    name: noop\n"), out)

	out, stderr, code = mainRun(t, "", []string{"plugins"}, app.WithModules(noopModule, noopModule))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "noop\n")

	for _, cmd := range []string{"plugins", "tools"} {
		_, stderr, code = mainRun(t, "", []string{cmd}, app.WithModules(noopModule, noop2()))
		assert.Equal(t, 1, code)
		assert.Equal(t, "harness: kernelfx: duplicate module id: \"noop\" (group kernel.modules) is already taken by another contribution; include each plugin's fx Module once\n", stderr)
	}
}

// noopModule is the fx module a plugin package would export for noop.
var noopModule = fx.Module("noop", kernelfx.Plugin(noop))

// noop2 is the fx module of a different module under the id "noop".
func noop2() fx.Option {
	return kernelfx.Plugin(kernel.Define[struct{}]("noop", func(*kernel.Context, struct{}) error { return nil }))
}

func TestWithProfileAndName(t *testing.T) {
	dir := t.TempDir()
	opts := []app.Option{app.WithName("myhost"), app.WithProfile("tiny", []byte("plugins:\n  - name: tools\n"))}
	out, stderr, code := mainRun(t, "", []string{"config", "--profile", "tiny", "--cwd", dir}, opts...)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "# profile tiny\nplugins:\n  - id: tools # active\n    name: tools\n", out)

	_, stderr, code = mainRun(t, "", []string{"serve", "--profile", "nope"}, opts...)
	assert.Equal(t, 1, code)
	assert.Equal(t, "myhost: --profile: unknown profile \"nope\" (known: default, sandboxed, tiny, unconfined)\n", stderr)
}

func TestEntryEncodesConfig(t *testing.T) {
	e, err := app.Entry("fs-local", map[string]any{"cwd": "/x"})
	require.NoError(t, err)
	assert.Equal(t, "fs-local", e.Name)
	assert.Equal(t, "cwd", e.Config.Content[0].Value)
	assert.Equal(t, "/x", e.Config.Content[1].Value)
	_, err = app.Entry("x", func() {})
	assert.Error(t, err)
	assert.Panics(t, func() { app.MustEntry("x", func() {}) })
}

func TestProfileDefaultIsEmbedded(t *testing.T) {
	data, err := app.Profile(app.DefaultProfile)
	require.NoError(t, err)
	for _, name := range []string{"sandbox-policy", "fs-sandbox", "fs-observation-policy", "tools", "tool-fs", "user-approval"} {
		assert.Contains(t, string(data), "name: "+name)
	}
	assert.Contains(t, string(data), "{ mode: workspace-write, reads: roots, tempRoots: false }", "the default confines reads and writes to the roots")
	data, err = app.Profile("unconfined")
	require.NoError(t, err)
	assert.Contains(t, string(data), "name: fs-local", "the reference's composition is one flag away")
	assert.NotContains(t, string(data), "name: sandbox-policy")
	_, err = app.Profile("nope")
	assert.EqualError(t, err, `unknown profile "nope" (known: default, sandboxed, unconfined)`)
}

func TestRunInProcess(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	out, stderr, code := mainRun(t, `{"id":1,"tool":"read","args":{"file_path":"a.txt"}}`+"\n", []string{"run", "--cwd", dir, "--log-level", "debug"})
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"isError":false`)
	assert.Contains(t, stderr, "ready: reading JSON lines on stdin")
	assert.NotContains(t, out, "ready", "logs never reach stdout")
}
