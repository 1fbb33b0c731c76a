package diagnostics_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/diagnostics"
	"github.com/cordon-dev/cordon/plugins/fshistory"
)

// undo (fs-history) publishes a restore; it is checked like any change.
func TestUndoIsChecked(t *testing.T) {
	e := fakeEnv(t, nil)
	var hcfg fshistory.Config
	hcfg.Defaults()
	hcfg.Dir = filepath.Join(t.TempDir(), "history")
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, fshistory.Plugin, &hcfg))
	editA(t, e, "ERROR: old", "fine")
	r := e.ok(t, "undo", args{"file_path": e.path("a.fk")})
	assert.Equal(t, lines(
		"Diagnostics (fakels) of "+e.path("a.fk")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("a.fk")+":2:1: old (fake)",
	), diagnosticsOf(t, r))
}

// Disposing the plugin shuts its servers down: no process and no goroutine is left (TestMain
// checks the goroutines).
func TestDisposeEndsTheServers(t *testing.T) {
	e := fakeEnv(t, nil)
	editA(t, e, "three", "3")
	out, err := serverPIDs(e.dir)
	require.NoError(t, err)
	require.NotEmpty(t, out, "the server runs")
	require.NoError(t, e.diag.Dispose())
	assert.Eventually(t, func() bool { o, _ := serverPIDs(e.dir); return o == "" }, 5*time.Second, 50*time.Millisecond)
}

func TestConfigValidation(t *testing.T) {
	for _, c := range []struct {
		yaml, want string
	}{
		{"wait: 0s", "lsp-diagnostics: wait must be a positive duration"},
		{"checkTimeout: -1s", "lsp-diagnostics: checkTimeout must be a positive duration"},
		{"maxServers: 0", "lsp-diagnostics: maxServers must be a positive integer"},
		{"maxFiles: 0", "lsp-diagnostics: maxFiles must be a positive integer"},
		{"servers: {go: {commands: [[]]}}", "lsp-diagnostics: servers.go.commands: a command line must name a program"},
		{"servers: {go: {extensions: {go: go}}}", `lsp-diagnostics: servers.go.extensions: "go": an extension starts with a dot and names a language id`},
		{"servers: {rust: {commands: [[rust-analyzer]]}}", "lsp-diagnostics: servers.rust: a language Cordon does not know needs commands, extensions and rootMarkers"},
		{"resultBudget: 0", "lsp-diagnostics: resultBudget must be a positive integer"},
	} {
		cfg := diagnostics.DefaultConfig()
		require.NoError(t, yaml.Unmarshal([]byte(c.yaml), &cfg), c.yaml)
		assert.EqualError(t, cfg.Validate(), c.want, c.yaml)
	}
	cfg := diagnostics.DefaultConfig()
	require.NoError(t, cfg.Validate())
	assert.Equal(t, confint.Duration(5*time.Second), cfg.Wait)
	require.NoError(t, yaml.Unmarshal([]byte("wait: 750ms\nservers: {typescript: {disabled: true}, rust: {commands: [[ra]], extensions: {.rs: rust}, rootMarkers: [Cargo.toml]}}"), &cfg))
	require.NoError(t, cfg.Validate())
	assert.Error(t, yaml.Unmarshal([]byte("wait: 5"), &cfg), "a duration is a string")
}

// maxServers bounds the servers (one per language and root): a root past it gets one line; a file
// dropped under maxFiles is based again on its text before the next change.
func TestBounds(t *testing.T) {
	e := fakeEnv(t, func(c *diagnostics.Config) { c.MaxServers = 1; c.MaxFiles = 1 })
	e.put(t, "other/fake.root", "")
	r := e.ok(t, "write", args{"file_path": e.path("other/x.fk"), "content": "ERROR: x\n"})
	assert.Equal(t, "Diagnostics (fakels) of "+e.path("other/x.fk")+": 1 new problem from this change (1 error, 0 warnings):\n"+e.path("other/x.fk")+":1:1: x (fake)", diagnosticsOf(t, r))
	r = editA(t, e, "three", "3")
	assert.Equal(t, "Diagnostics (fake): unavailable: no fake server started: 1 server already running (maxServers). The change is unaffected.", diagnosticsOf(t, r))

	e = fakeEnv(t, func(c *diagnostics.Config) { c.MaxFiles = 1 })
	editA(t, e, "three", "3")
	e.ok(t, "read", args{"file_path": e.path("sibling.fk")})
	e.ok(t, "edit", args{"file_path": e.path("sibling.fk"), "old_string": "WARN", "new_string": "ERROR"})
	r = editA(t, e, "3", "three")
	assert.Equal(t, "Diagnostics (fakels) of "+e.path("a.fk")+": no new problems from this change.", diagnosticsOf(t, r))
}

// What a server writes to its standard error goes to the log, with the server and its root.
func TestServerStderrGoesToTheLog(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.InfoLevel)
	e := newEnvIn(t, root, fakeConfig(nil))
	e.put(t, "fake.root", "")
	e.ok(t, "write", args{"file_path": e.path("a.fk"), "content": "x\n"})
	stderr := func() []observer.LoggedEntry {
		return logs.FilterMessage("diagnostics: server stderr").FilterField(zap.String("line", "fakels: started")).All()
	}
	require.Eventually(t, func() bool { return len(stderr()) == 1 }, 5*time.Second, 10*time.Millisecond)
	found := stderr()
	assert.Equal(t, e.dir, found[0].ContextMap()["root"])
	assert.Equal(t, "fakels", found[0].ContextMap()["server"])
}

// No server starts for a root holding more files than maxRootFiles (.git and node_modules not
// counted): one line says so.
func TestMaxRootFiles(t *testing.T) {
	e := fakeEnv(t, func(c *diagnostics.Config) { c.MaxRootFiles = 4 })
	for _, name := range []string{".git/x", ".git/y", "node_modules/m/a", "node_modules/m/b"} {
		e.put(t, name, "")
	}
	r := editA(t, e, "three", "3") // fake.root, a.fk, sibling.fk: 3 files
	assert.Equal(t, "Diagnostics (fakels) of "+e.path("a.fk")+": no new problems from this change.", diagnosticsOf(t, r))

	e = fakeEnv(t, func(c *diagnostics.Config) { c.MaxRootFiles = 2 })
	r = editA(t, e, "three", "3")
	assert.Equal(t, "Diagnostics (fakels): unavailable: fakels is not started for "+e.dir+": it holds more than 2 files (maxRootFiles). The change is unaffected.", diagnosticsOf(t, r))
}
