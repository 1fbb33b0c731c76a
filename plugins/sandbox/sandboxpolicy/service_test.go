package sandboxpolicy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Defaults to read-only under the process cwd.
func TestDefaultsReadOnlyUnderProcessCwd(t *testing.T) {
	p, _, _ := mounted(t, nil)
	assert.Equal(t, sandbox.ReadOnly, p.DefaultMode())
	wd, err := os.Getwd()
	require.NoError(t, err)
	real, err := filepath.EvalSymlinks(wd)
	require.NoError(t, err)
	assert.Equal(t, real, p.WorkspaceRoot())
}

// Carries a configured mode and resolves the workspace root absolute.
func TestConfiguredModeAndAbsoluteRoot(t *testing.T) {
	noPath(t, "/ws")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws/../ws/./sub"})
	assert.Equal(t, sandbox.WorkspaceWrite, p.DefaultMode())
	assert.Equal(t, "/ws/sub", p.WorkspaceRoot())

	// A relative root is taken against the process working directory.
	p, _, _ = mounted(t, &sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: "no-such-dir/x/.."})
	assert.Equal(t, abs(t, "no-such-dir"), p.WorkspaceRoot())
}

// The configured root is canonical: a symlinked spelling stores the physical directory.
func TestConfiguredRootIsCanonical(t *testing.T) {
	dir := realDir(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "physical"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "physical"), filepath.Join(dir, "link")))
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: filepath.Join(dir, "link")})
	assert.Equal(t, filepath.Join(dir, "physical"), p.WorkspaceRoot())
}

// Resolves the deployment policy for an agentless call.
func TestResolveAgentless(t *testing.T) {
	noPath(t, "/fallback")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"})
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"}, p.Resolve(nil, ""))
}

// Resolves each session mode and cwd together without changing the fallback.
func TestResolvePerSession(t *testing.T) {
	noPath(t, "/projects")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"})
	first := session("sess-first", "/projects/first")
	second := session("sess-second", "/projects/second")
	require.NoError(t, p.SetMode(second, sandbox.ReadOnly))

	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/projects/first", SessionID: "sess-first"}, p.Resolve(first, ""))
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.ReadOnly, WorkspaceRoot: "/projects/second", SessionID: "sess-second"}, p.Resolve(second, ""))
	_, ok := p.OverrideOf(first)
	assert.False(t, ok)
	m, ok := p.OverrideOf(second)
	assert.True(t, ok)
	assert.Equal(t, sandbox.ReadOnly, m)
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"}, p.Resolve(nil, ""))
	_, ok = p.OverrideOf(nil)
	assert.False(t, ok)
}

// Resolves a symlink-sensitive session cwd with POSIX component semantics.
func TestResolveSymlinkSensitiveCwd(t *testing.T) {
	root := realDir(t)
	lexical := filepath.Join(root, "lexical")
	physical := filepath.Join(root, "physical")
	child := filepath.Join(physical, "child")
	require.NoError(t, os.Mkdir(lexical, 0o755))
	require.NoError(t, os.MkdirAll(child, 0o755))
	link := filepath.Join(lexical, "link")
	require.NoError(t, os.Symlink(child, link))
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"})
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: physical, SessionID: "sess-symlink-parent"},
		p.Resolve(session("sess-symlink-parent", link+string(filepath.Separator)+".."), ""))
}

// Lets an approved mode outrank the session mode while retaining its root.
func TestResolveExplicitOutranksOverride(t *testing.T) {
	noPath(t, "/projects")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: "/fallback"})
	active := session("sess-approved", "/projects/approved")
	require.NoError(t, p.SetMode(active, sandbox.ReadOnly))
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.DangerFullAccess, WorkspaceRoot: "/projects/approved", SessionID: "sess-approved"},
		p.Resolve(active, sandbox.DangerFullAccess))
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/fallback"}, p.Resolve(nil, sandbox.WorkspaceWrite))
	m, _ := p.OverrideOf(active)
	assert.Equal(t, sandbox.ReadOnly, m, "an explicit mode is never recorded")
	assert.Equal(t, sandbox.ReadOnly, p.Resolve(active, "").Mode)
}

// Uses the configured root when a session has no cwd.
func TestResolveSessionWithoutCwd(t *testing.T) {
	noPath(t, "/fallback")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: "/fallback"})
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.ReadOnly, WorkspaceRoot: "/fallback", SessionID: "sess-no-cwd"}, p.Resolve(session("sess-no-cwd", ""), ""))
}

// A nil *tools.Session behind the seam's Session is an agentless call; a Session of another kind
// resolves with its own ID and cwd but carries no override (an override ends with
// tools.SessionEnded, which only reports tools sessions).
func TestResolveOtherSessions(t *testing.T) {
	noPath(t, "/fallback")
	noPath(t, "/projects")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: "/fallback"})
	var none *tools.Session
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.ReadOnly, WorkspaceRoot: "/fallback"}, p.Resolve(none, ""))
	_, ok := p.OverrideOf(none)
	assert.False(t, ok)
	assert.ErrorIs(t, p.SetMode(none, sandbox.WorkspaceWrite), sandboxpolicy.ErrNoSession)

	other := otherSession{id: "other", cwd: "/projects/other"}
	assert.Equal(t, sandbox.CallPolicy{Mode: sandbox.ReadOnly, WorkspaceRoot: "/projects/other", SessionID: "other"}, p.Resolve(other, ""))
	assert.ErrorIs(t, p.SetMode(other, sandbox.WorkspaceWrite), sandboxpolicy.ErrNoSession)
	_, ok = p.OverrideOf(other)
	assert.False(t, ok)
}

// otherSession is a sandbox.Session that is not a tools session.
type otherSession struct{ id, cwd string }

func (s otherSession) ID() string  { return s.id }
func (s otherSession) Cwd() string { return s.cwd }

// The canonical root is taken at every call, not at configuration time: a root that appears as
// a symlink later resolves to its target from then on; a header cwd change applies at once.
func TestResolveRecomputesCanonicalRoot(t *testing.T) {
	dir := realDir(t)
	target := filepath.Join(dir, "target")
	require.NoError(t, os.Mkdir(target, 0o755))
	later := filepath.Join(dir, "later")
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: later})
	assert.Equal(t, later, p.Resolve(nil, "").WorkspaceRoot, "missing: kept as spelled")
	require.NoError(t, os.Symlink(target, later))
	assert.Equal(t, target, p.Resolve(nil, "").WorkspaceRoot)
	assert.Equal(t, later, p.WorkspaceRoot(), "the configured root itself is fixed at load")

	s := session("s", later)
	assert.Equal(t, target, p.Resolve(s, "").WorkspaceRoot)
	s.SetHeader(tools.Header{Cwd: dir})
	assert.Equal(t, dir, p.Resolve(s, "").WorkspaceRoot)
}

// Rejects a mode outside the closed vocabulary at load.
func TestRejectsUnknownModeAtLoad(t *testing.T) {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	for _, bad := range []sandbox.Mode{"yolo", "", "READ-ONLY"} {
		_, err := k.Root().Load(sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: bad})
		require.Error(t, err, bad)
		assert.ErrorIs(t, err, &sandboxpolicy.UnknownModeError{})
		_, ok := sandbox.PolicyService.Get(k.Root())
		assert.False(t, ok, "nothing provided")
	}
	_, err := sandboxpolicy.New(sandboxpolicy.Config{Mode: "yolo"}, nil)
	require.Error(t, err)
	assert.Equal(t, `sandbox-policy: mode must be one of "read-only", "workspace-write" or "danger-full-access" (got "yolo")`, err.Error())
}

// The composition decodes the config strictly: unknown keys fail, mode defaults to read-only.
func TestConfigYAML(t *testing.T) {
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(sandboxpolicy.Plugin, &n)
	}
	cfg, err := decode("workspaceRoot: /srv/ws")
	require.NoError(t, err)
	assert.Equal(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly, WorkspaceRoot: "/srv/ws"}, *cfg.(*sandboxpolicy.Config))
	cfg, err = decode("mode: danger-full-access")
	require.NoError(t, err)
	assert.Equal(t, sandboxpolicy.Config{Mode: sandbox.DangerFullAccess}, *cfg.(*sandboxpolicy.Config))
	cfg, err = decode("")
	require.NoError(t, err)
	assert.Equal(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly}, *cfg.(*sandboxpolicy.Config))

	_, err = decode("mode: yolo")
	require.Error(t, err)
	assert.Equal(t, `sandbox-policy: mode must be one of "read-only", "workspace-write" or "danger-full-access" (got "yolo")`, err.Error())
	_, err = decode("mode: workspace-write\nrunner: bwrap")
	var uk *loader.UnknownKeyError
	require.ErrorAs(t, err, &uk)
	assert.Equal(t, "runner", uk.Key)
	_, err = decode("mode: [read-only]")
	require.Error(t, err)
}

// Disposes the service ... (HMR safety): disposal withdraws the service and
// drops the overrides.
func TestDisposeWithdrawsService(t *testing.T) {
	p, kc, f := mounted(t, nil)
	s := session("sess-hmr", "")
	require.NoError(t, p.SetMode(s, sandbox.DangerFullAccess))
	require.NoError(t, f.Dispose())
	_, ok := sandbox.PolicyService.Get(kc)
	assert.False(t, ok)
	_, ok = p.OverrideOf(s)
	assert.False(t, ok, "state dropped on dispose")
}

// The effective mode is the last switch's: the last SetMode wins, each switch records one
// override, and an invalid one is refused at write time and changes nothing.
func TestSetModeLastWinsAndValidates(t *testing.T) {
	p, _, _ := mounted(t, nil)
	s := session("sess-fold", "")
	_, ok := p.OverrideOf(s)
	assert.False(t, ok)
	require.NoError(t, p.SetMode(s, sandbox.WorkspaceWrite))
	require.NoError(t, p.SetMode(s, sandbox.ReadOnly))
	m, ok := p.OverrideOf(s)
	assert.True(t, ok)
	assert.Equal(t, sandbox.ReadOnly, m)

	err := p.SetMode(s, "yolo")
	require.Error(t, err)
	assert.Equal(t, `sandbox/mode carries unknown mode "yolo"`, err.Error())
	assert.ErrorIs(t, err, &sandboxpolicy.UnknownModeError{})
	assert.Equal(t, `sandbox/mode carries unknown mode "a\"b\n"`, p.SetMode(s, "a\"b\n").Error())
	m, _ = p.OverrideOf(s)
	assert.Equal(t, sandbox.ReadOnly, m, "a refused switch changes nothing")

	assert.True(t, errors.Is(p.SetMode(nil, sandbox.ReadOnly), sandboxpolicy.ErrNoSession))

	// Two session objects are two sessions even with the same ID.
	twin := session("sess-fold", "")
	_, ok = p.OverrideOf(twin)
	assert.False(t, ok)
}

// tools.SessionEnded drops the ended session's override only (fspolicy does the same).
func TestSessionEndedDropsOverride(t *testing.T) {
	p, kc, _ := mounted(t, nil)
	ended, kept := session("a", ""), session("b", "")
	require.NoError(t, p.SetMode(ended, sandbox.DangerFullAccess))
	require.NoError(t, p.SetMode(kept, sandbox.WorkspaceWrite))
	require.NoError(t, tools.SessionEnded.Emit(context.Background(), kc, ended))
	require.NoError(t, tools.SessionEnded.Emit(context.Background(), kc, nil))
	_, ok := p.OverrideOf(ended)
	assert.False(t, ok)
	assert.Equal(t, sandbox.ReadOnly, p.Resolve(ended, "").Mode, "back to the default")
	m, ok := p.OverrideOf(kept)
	assert.True(t, ok)
	assert.Equal(t, sandbox.WorkspaceWrite, m)
}

// SANDBOX_MODES lists every mode for advertisement and validation.
func TestModesVocabulary(t *testing.T) {
	assert.Equal(t, []sandbox.Mode{"read-only", "workspace-write", "danger-full-access"}, sandbox.Modes)
}

// Overrides and resolution are safe for concurrent use (run with -race).
func TestConcurrentOverrides(t *testing.T) {
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: t.TempDir()})
	sessions := []*tools.Session{session("a", ""), session("b", ""), session("c", "")}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				s := sessions[(i+j)%len(sessions)]
				_ = p.SetMode(s, sandbox.Modes[j%len(sandbox.Modes)])
				got := p.Resolve(s, "")
				if !sandbox.ValidMode(got.Mode) {
					t.Errorf("invalid mode %q", got.Mode)
				}
				if svc, ok := p.(*sandboxpolicy.Service); ok && j%50 == 0 {
					svc.EndSession(s)
				}
			}
		}()
	}
	wg.Wait()
}

// The plugin's fx module contributes it under its name.
func TestCatalogRegistration(t *testing.T) {
	cat, err := kernelfx.Catalog(sandboxpolicy.Module)
	require.NoError(t, err)
	m, ok := cat.Lookup("sandbox-policy")
	require.True(t, ok)
	assert.Equal(t, sandboxpolicy.ID, m.ID)
	assert.Empty(t, m.Inject, "mounts immediately")
}
