package toolfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// realSandbox is the whole sandboxed stack: tools, sandbox-policy, the real fs-sandbox provider,
// the observation policy, an approver and tool-fs, over base/{ws,out} under $HOME (outside every
// temp root, so out is outside every writable root).
type realSandbox struct {
	root    *kernel.Context
	rt      *tools.Runtime
	policy  sandbox.Policy
	ws, out string
	session *tools.Session
	mu      sync.Mutex
	calls   int
}

func newRealSandbox(t *testing.T, mode sandbox.Mode, approver tools.Approver) *realSandbox {
	t.Helper()
	base := sandboxtest.OutsideDir(t)
	e := &realSandbox{ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out")}
	require.NoError(t, os.Mkdir(e.ws, 0o755))
	require.NoError(t, os.Mkdir(e.out, 0o755))
	e.root = kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: mode, WorkspaceRoot: e.ws}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, fssandbox.Plugin, &fssandbox.Config{Cwd: e.ws, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, fspolicy.Plugin, nil))
	if approver != nil {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, kernel.Module{ID: "test-approval", Apply: func(kc *kernel.Context, _ any) error {
			_, err := tools.Approval.Provide(kc, approver)
			return err
		}}, nil))
	}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolfs.Plugin, nil))
	var ok bool
	e.rt, ok = tools.Service.Get(e.root)
	require.True(t, ok)
	e.policy, ok = sandbox.PolicyService.Get(e.root)
	require.True(t, ok)
	e.session = tools.NewSession("s1")
	e.session.SetHeader(tools.Header{Cwd: e.ws})
	return e
}

func (e *realSandbox) call(name string, a any) tools.Result {
	e.mu.Lock()
	e.calls++
	id := "call-" + strconv.Itoa(e.calls)
	e.mu.Unlock()
	return e.rt.Execute(context.Background(), tools.Call{CallID: id, Name: name, Args: a, Session: e.session})
}

// docs/tool-fs.md "Sandbox escalation": a grant is consumed by exactly the call that asked.
// Escalated and plain calls of one session run concurrently (the approver answers while the plain
// calls proceed): every plain call is fenced at the standing read-only mode and every escalated one
// lands, so no grant ever leaks into a neighbouring call; nothing is persisted.
func TestRealSandboxGrantNeverLeaks(t *testing.T) {
	const n = 8
	release := make(chan struct{})
	asked := make(chan struct{}, n)
	approver := approverFunc(func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
		asked <- struct{}{}
		<-release // every escalated call waits here while the plain calls run
		return tools.AllowedOnce, nil
	})
	e := newRealSandbox(t, sandbox.ReadOnly, approver)
	var granted, plain sync.WaitGroup
	results := make([]tools.Result, 3*n)
	for i := range n {
		granted.Add(1)
		go func() {
			defer granted.Done()
			results[i] = e.call("write", args{"file_path": filepath.Join(e.out, "granted-"+strconv.Itoa(i)), "content": "g",
				"sandbox_permissions": "danger-full-access", "justification": "the test needs it"})
		}()
	}
	for range n {
		<-asked // every grant is pending
	}
	for i := range n {
		plain.Add(2)
		go func() {
			defer plain.Done()
			results[n+i] = e.call("write", args{"file_path": filepath.Join(e.out, "plain-"+strconv.Itoa(i)), "content": "p"})
		}()
		go func() {
			defer plain.Done()
			results[2*n+i] = e.call("write", args{"file_path": "plain-" + strconv.Itoa(i), "content": "p"})
		}()
	}
	plain.Wait()
	close(release)
	granted.Wait()
	for i := range n {
		requireOK(t, results[i])
		requireFailure(t, results[n+i], denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
		requireFailure(t, results[2*n+i], denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
		requireFailure(t, e.call("write", args{"file_path": filepath.Join(e.out, "after-"+strconv.Itoa(i)), "content": "p"}),
			denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
	}
	var names []string
	for i := range n {
		names = append(names, "granted-"+strconv.Itoa(i))
	}
	assert.ElementsMatch(t, names, dirNames(t, e.out), "only the granted calls wrote outside")
	assert.Empty(t, dirNames(t, e.ws))
	_, overridden := e.policy.OverrideOf(e.session)
	assert.False(t, overridden)
}

// docs/sandbox.md "Modes and the policy" and docs/tool-fs.md "Sandbox escalation": a session
// override switched while a call is being asked about does not change that call (its policy was
// resolved when it started, the grant replaces only the mode); the switch applies from the next
// call on.
func TestRealSandboxOverrideSwitchedMidCall(t *testing.T) {
	var e *realSandbox
	approver := approverFunc(func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
		require.NoError(t, e.policy.SetMode(e.session, sandbox.ReadOnly))
		return tools.AllowedOnce, nil
	})
	e = newRealSandbox(t, sandbox.WorkspaceWrite, approver)
	// Granted workspace-write -> danger-full-access while the session is switched to read-only.
	requireOK(t, e.call("write", args{"file_path": filepath.Join(e.out, "g.txt"), "content": "g",
		"sandbox_permissions": "danger-full-access", "justification": "why"}))
	requireFailure(t, e.call("write", args{"file_path": "next.txt", "content": "x"}), denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
	// A granted workspace-write keeps the session's root and is still fenced, also for protected paths.
	requireFailure(t, e.call("write", args{"file_path": filepath.Join(e.out, "w.txt"), "content": "x",
		"sandbox_permissions": "workspace-write", "justification": "why"}), denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
	requireFailure(t, e.call("write", args{"file_path": ".git/config", "content": "x",
		"sandbox_permissions": "workspace-write", "justification": "why"}), denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
	requireOK(t, e.call("write", args{"file_path": "w.txt", "content": "x", "sandbox_permissions": "workspace-write", "justification": "why"}))
	assert.Equal(t, []string{"g.txt"}, dirNames(t, e.out))
	assert.Equal(t, []string{"w.txt"}, dirNames(t, e.ws))
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

// The policy service unloaded while a call is being asked about: the unload does not wait on
// the call (no deadlock), the call finishes under the policy it resolved when it started (here
// the user's grant), and every later call fails closed (tool-fs is pending without the policy's
// filesystem).
func TestRealSandboxPolicyUnloadedMidCall(t *testing.T) {
	var e *realSandbox
	approver := approverFunc(func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
		for _, f := range e.root.Kernel().Fibers() {
			if f.Module().ID == sandboxpolicy.ID {
				done := make(chan struct{})
				go func() { defer close(done); kerneltest.RequireDispose(t, f) }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Error("unloading the policy service waited on the running call")
				}
			}
		}
		return tools.AllowedOnce, nil
	})
	e = newRealSandbox(t, sandbox.WorkspaceWrite, approver)
	requireOK(t, e.call("write", args{"file_path": filepath.Join(e.out, "g.txt"), "content": "g",
		"sandbox_permissions": "danger-full-access", "justification": "why"}))
	for _, path := range []string{"a.txt", filepath.Join(e.out, "h.txt")} {
		r := e.call("write", args{"file_path": path, "content": "x"})
		require.True(t, r.IsError, r.Text())
	}
	assert.Equal(t, []string{"g.txt"}, dirNames(t, e.out))
	assert.Empty(t, dirNames(t, e.ws))
}
