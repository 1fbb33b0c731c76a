package toolfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// confiningFS is a small confining provider for the tool tests: the real fs-local provider behind
// a per-call fence that records the stamped policy of every mutation. read-only denies every
// mutation; workspace-write denies a key outside the policy's workspace root; danger-full-access
// delegates. A nil policy is fenced at the provider's default mode and its own root. rejectWith,
// when set, is returned by every mutation instead.
type confiningFS struct {
	fs.FileSystem
	mode sandbox.Mode
	root string

	mu         sync.Mutex
	stamped    []*sandbox.CallPolicy
	rejectWith error
}

func (c *confiningFS) SandboxMode() sandbox.Mode { return c.mode }

func (c *confiningFS) takeStamps() []*sandbox.CallPolicy {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.stamped
	c.stamped = nil
	return out
}

func (c *confiningFS) fence(t fs.Target, p *sandbox.CallPolicy) error {
	c.mu.Lock()
	var stamp *sandbox.CallPolicy
	if p != nil {
		cp := *p
		stamp = &cp
	}
	c.stamped = append(c.stamped, stamp)
	reject := c.rejectWith
	c.mu.Unlock()
	if reject != nil {
		return reject
	}
	policy := sandbox.CallPolicy{Mode: c.mode, WorkspaceRoot: c.root}
	if p != nil {
		policy = *p
	}
	deny := func() error {
		return fs.NewError(fs.CodeSandboxDenied, `cannot write "`+t.DisplayPath+`": file access denied under `+string(policy.Mode)+` mode`, nil)
	}
	switch policy.Mode {
	case sandbox.DangerFullAccess:
		return nil
	case sandbox.WorkspaceWrite:
		key := string(t.Key)
		if key == policy.WorkspaceRoot || strings.HasPrefix(key, policy.WorkspaceRoot+string(filepath.Separator)) {
			return nil
		}
	}
	return deny()
}

func (c *confiningFS) WriteText(ctx context.Context, t fs.Target, content string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	if err := c.fence(t, sandbox.PolicyFrom(ctx)); err != nil {
		return fs.WriteOutcome{}, err
	}
	return c.FileSystem.WriteText(ctx, t, content, i)
}

func (c *confiningFS) EditText(ctx context.Context, t fs.Target, e fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	if err := c.fence(t, sandbox.PolicyFrom(ctx)); err != nil {
		return fs.EditOutcome{}, err
	}
	return c.FileSystem.EditText(ctx, t, e, g)
}

// recordingApprover answers every request with a fixed outcome (or error) and records them.
type recordingApprover struct {
	outcome tools.ApprovalOutcome
	err     error

	mu   sync.Mutex
	seen []tools.ApprovalRequest
}

func (a *recordingApprover) Request(_ context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	a.mu.Lock()
	a.seen = append(a.seen, req)
	a.mu.Unlock()
	return a.outcome, a.err
}

func (a *recordingApprover) requests() []tools.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]tools.ApprovalRequest(nil), a.seen...)
}

// sandboxEnv is a kernel with the tools runtime, the sandbox-policy plugin, a confining
// provider over a fresh directory, the observation policy, optionally an approval service, and
// tool-fs. The session s1 works in <dir>/project.
type sandboxEnv struct {
	root    *kernel.Context
	rt      *tools.Runtime
	fsys    *confiningFS
	policy  sandbox.Policy
	dir     string
	project string
	session *tools.Session
	calls   int
}

type sandboxOptions struct {
	mode     sandbox.Mode   // the policy's default mode (and the provider's); "" = workspace-write
	approver tools.Approver // nil: no approval service composed
	config   *toolfs.Config // nil: defaults
}

func newSandboxEnv(t *testing.T, opt sandboxOptions) *sandboxEnv {
	t.Helper()
	if opt.mode == "" {
		opt.mode = sandbox.WorkspaceWrite
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	project := filepath.Join(dir, "project")
	require.NoError(t, os.Mkdir(project, 0o755))
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: opt.mode, WorkspaceRoot: dir}))
	cfs := loadConfiningFS(t, root, dir, opt.mode)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, nil))
	if opt.approver != nil {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, kernel.Module{ID: "test-approval", Apply: func(kc *kernel.Context, _ any) error {
			_, err := tools.Approval.Provide(kc, opt.approver)
			return err
		}}, nil))
	}
	var cfg any
	if opt.config != nil {
		cfg = *opt.config
	}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, cfg))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	policy, ok := sandbox.PolicyService.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: project})
	return &sandboxEnv{root: root, rt: rt, fsys: cfs, policy: policy, dir: dir, project: project, session: s}
}

// loadConfiningFS provides a confiningFS over dir (default mode mode) as the fs service.
func loadConfiningFS(t *testing.T, root *kernel.Context, dir string, mode sandbox.Mode) *confiningFS {
	t.Helper()
	cfs := &confiningFS{mode: mode, root: dir}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, kernel.Module{ID: "confining-fs", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}, kc.Logger())
		if err != nil {
			return err
		}
		cfs.FileSystem = p
		_, err = fs.Service.Provide(kc, cfs)
		return err
	}}, nil))
	return cfs
}

// callIn runs a tool in session s (nil: no agent session).
func (e *sandboxEnv) callIn(s *tools.Session, name string, a any) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "call-" + strconv.Itoa(e.calls), Name: name, Args: a, Session: s})
}

func (e *sandboxEnv) call(name string, a any) tools.Result { return e.callIn(e.session, name, a) }

// denial is the model-facing text of a sandbox denial under mode.
func denial(mode sandbox.Mode) string {
	return "Error: [sandbox: file access denied under " + string(mode) + " mode]\n" +
		"[sandbox: escalation available — retry this exact operation once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]"
}
