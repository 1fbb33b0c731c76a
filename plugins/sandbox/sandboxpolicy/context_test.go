package sandboxpolicy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

const (
	readOnlyText = "Current file policy: read-only. Any available operation enforced by the file sandbox cannot modify files in the standing mode. Do not refuse a required modification from this policy alone: try an available tool normally and follow any denial and escalation guidance it returns."
	dangerText   = "Current file policy: danger-full-access. The file sandbox does not restrict file modifications by available operations."
)

func workspaceText(root string) string {
	return "Current file policy: workspace-write. Any available operation enforced by the file sandbox may modify files under the session workspace: " +
		root + ". Some platform temporary areas may also be writable."
}

func service(t *testing.T, cfg sandboxpolicy.Config) *sandboxpolicy.Service {
	t.Helper()
	p, _, _ := mounted(t, cfg)
	s, ok := p.(*sandboxpolicy.Service)
	require.True(t, ok)
	return s
}

// Renders the exact <mode> policy without a capability inventory.
func TestContextTextPerMode(t *testing.T) {
	noPath(t, "/projects")
	want := map[sandbox.Mode]string{
		sandbox.ReadOnly:         readOnlyText,
		sandbox.WorkspaceWrite:   workspaceText(`"/projects/current"`),
		sandbox.DangerFullAccess: dangerText,
	}
	for mode, text := range want {
		s := service(t, sandboxpolicy.Config{Mode: mode, WorkspaceRoot: "/fallback"})
		assert.Equal(t, text, s.ContextText(session("sess-"+string(mode), "/projects/../projects/current")), mode)
	}
	assert.Equal(t, "", sandboxpolicy.PolicyText(sandbox.CallPolicy{Mode: "yolo"}))
}

// Keeps the complete rendered prompt byte-stable across TMPDIR changes.
func TestContextTextStableAcrossTmpdir(t *testing.T) {
	noPath(t, "/projects")
	s := service(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite})
	active := session("sess-tmpdir-stability", "/projects/current")
	t.Setenv("TMPDIR", "/tmp/first-host-temp")
	first := s.ContextText(active)
	t.Setenv("TMPDIR", "/tmp/second-host-temp")
	assert.Equal(t, first, s.ContextText(active))
	assert.NotContains(t, first, "host-temp")
	assert.Equal(t, workspaceText(`"/projects/current"`), first)
}

// Reflects the latest durable switch on the next assembly and stays byte-stable
// otherwise.
func TestContextTextFollowsSwitches(t *testing.T) {
	noPath(t, "/projects")
	s := service(t, sandboxpolicy.Config{Mode: sandbox.ReadOnly})
	active := session("sess-switch", "/projects/current")
	first := s.ContextText(active)
	assert.Equal(t, readOnlyText, first)
	assert.Equal(t, first, s.ContextText(active))
	require.NoError(t, s.SetMode(active, sandbox.DangerFullAccess))
	assert.Equal(t, dangerText, s.ContextText(active))
	assert.Equal(t, dangerText, s.ContextText(active))
	require.NoError(t, s.SetMode(active, sandbox.WorkspaceWrite))
	assert.Equal(t, workspaceText(`"/projects/current"`), s.ContextText(active))
}

// Without an agent the diagnostics are omitted.
func TestContextTextWithoutAgent(t *testing.T) {
	s := service(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite})
	assert.Equal(t, "", s.ContextText(nil))
	assert.Equal(t, "sandbox:policy", sandboxpolicy.ContextName)
	assert.Equal(t, 110, sandboxpolicy.ContextOrder)
}

// The workspace root is embedded with JSON.stringify semantics (texts.Quote), not encoding/json's.
func TestPolicyTextQuotesTheRootAsJSONStringify(t *testing.T) {
	assert.Equal(t, workspaceText(`"/w s/\"q\""`), sandboxpolicy.PolicyText(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: `/w s/"q"`}))
	assert.Equal(t, workspaceText("\"/l\u2028p<&>\""), sandboxpolicy.PolicyText(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/l\u2028p<&>"}))
}

// The safe default's statement names the roots, leaves out the temp areas it does not grant and
// says that reads are confined too (docs/host.md "Server instructions").
func TestPolicyTextOfTheSafeDefault(t *testing.T) {
	got := sandboxpolicy.PolicyText(sandbox.CallPolicy{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/p", Roots: []string{"/q"}, ReadOnlyRoots: []string{"/r", "/s"},
		ConfineReads: true, NoTempRoots: true,
	})
	assert.Equal(t, `Current file policy: workspace-write. Any available operation enforced by the file sandbox may modify files under the session workspace: "/p". Also writable: "/q". `+
		`Files can be read, listed and searched only under these directories and the read-only "/r", "/s"; anything else is refused, and only the user can widen the roots.`, got)
	// The configuration reaches the resolved policy.
	f := false
	s := service(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/p", Reads: sandboxpolicy.ReadsRoots, TempRoots: &f})
	pol := s.Resolve(nil, "")
	assert.True(t, pol.ConfineReads)
	assert.True(t, pol.NoTempRoots)
	assert.NotContains(t, sandboxpolicy.PolicyText(pol), "temporary")
}

func TestConfigRefusesAnUnknownReads(t *testing.T) {
	err := sandboxpolicy.Config{Mode: sandbox.ReadOnly, Reads: "everywhere"}.Validate()
	assert.EqualError(t, err, `sandbox-policy: reads must be "anywhere" or "roots" (got "everywhere")`)
	err = sandboxpolicy.Config{Mode: sandbox.ReadOnly, Roots: []string{" "}}.Validate()
	assert.EqualError(t, err, "sandbox-policy: a root must not be empty")
}
