package toolfs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

const escalationProps = `"sandbox_permissions":{"type":"string","enum":["workspace-write","danger-full-access"],"description":"The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval."},` +
	`"justification":{"type":"string","description":"Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access."}`

// Fails load when a confining filesystem has no shared sandbox-policy resolver.
func TestSandboxLoadNeedsPolicy(t *testing.T) {
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	loadConfiningFS(t, root, t.TempDir(), sandbox.WorkspaceWrite)
	_, err := root.Load(toolfs.Plugin, nil)
	require.Error(t, err)
	assert.Equal(t, "tool-fs: the mounted filesystem confines but no sandbox policy service is composed", err.Error())
	rt, _ := tools.Service.Get(root)
	assert.Empty(t, rt.Schemas(), "nothing registered")
}

// Advertises no escalation fields under a non-confining backend.
func TestSandboxNoFieldsWhenNotConfining(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, name := range []string{"write", "edit"} {
		def, ok := e.rt.Get(name)
		require.True(t, ok)
		assert.NotContains(t, string(def.Parameters), "sandbox_permissions")
		assert.NotContains(t, string(def.Parameters), "justification")
	}
}

// Advertises the closed target vocabulary on write and edit under a confining
// backend: the two fields follow the base properties, byte for byte, and are not required.
func TestSandboxAdvertisesEscalationFields(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	schemas := e.rt.Schemas()
	require.Len(t, schemas, 3)
	assert.Equal(t, readSchema, string(schemas[0].Parameters), "read is never escalated")
	insert := func(base string) string {
		const marker = `},"required":`
		i := len(base) - len(`},"required":["file_path","content"]}`)
		if base == editSchema {
			i = len(base) - len(`},"required":["file_path","old_string","new_string"]}`)
		}
		require.Equal(t, marker, base[i:i+len(marker)])
		return base[:i] + "," + escalationProps + base[i:]
	}
	assert.Equal(t, insert(writeSchema), string(schemas[1].Parameters))
	assert.Equal(t, insert(editSchema), string(schemas[2].Parameters))
	for _, s := range schemas[1:] {
		var parsed struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		require.NoError(t, json.Unmarshal(s.Parameters, &parsed))
		assert.Equal(t, []string{"workspace-write", "danger-full-access"}, parsed.Properties["sandbox_permissions"].Enum)
		assert.NotContains(t, parsed.Required, "sandbox_permissions")
		assert.NotContains(t, parsed.Required, "justification")
	}
	// Even with a danger-full-access default the full enum is advertised (a session may be
	// switched narrower than the default).
	wide := newSandboxEnv(t, sandboxOptions{mode: sandbox.DangerFullAccess})
	assert.Equal(t, insert(writeSchema), string(wide.rt.Schemas()[1].Parameters))
}

// A plain write stamps the default mode with the calling session root; the
// relative path resolves against that root.
func TestSandboxPlainWriteStampsStandingPolicy(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireOK(t, r)
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
	b, err := os.ReadFile(filepath.Join(e.project, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
}

// The workspace root is the canonical session cwd, and it is the resolve base: a symlinked cwd
// writes into the physical directory.
func TestSandboxRootIsCanonicalSessionCwd(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	link := filepath.Join(e.dir, "link")
	require.NoError(t, os.Symlink(e.project, link))
	s := tools.NewSession("s2")
	s.SetHeader(tools.Header{Cwd: link})
	r := e.callIn(s, "write", args{"file_path": "b.txt", "content": "y"})
	requireOK(t, r)
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: e.project, SessionID: "s2"}}, e.fsys.takeStamps())
	assert.FileExists(t, filepath.Join(e.project, "b.txt"))
}

// An agentless call gets the agentless policy: the default mode, the configured root, no
// session id; relative paths resolve against the configured root.
func TestSandboxAgentlessPolicy(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	r := e.callIn(nil, "write", args{"file_path": "c.txt", "content": "z"})
	requireOK(t, r)
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: e.dir}}, e.fsys.takeStamps())
	assert.FileExists(t, filepath.Join(e.dir, "c.txt"))
}

// A standing session override folds onto the stamp; under read-only the write is
// denied with the marker of the stamped mode.
func TestSandboxSessionOverrideFoldsOntoStamp(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	require.NoError(t, e.policy.SetMode(e.session, sandbox.ReadOnly))
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.ReadOnly, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
	assert.NoFileExists(t, filepath.Join(e.project, "a.txt"))

	// Another session keeps the default.
	other := tools.NewSession("s3")
	other.SetHeader(tools.Header{Cwd: e.project})
	requireOK(t, e.callIn(other, "write", args{"file_path": "a.txt", "content": "x"}))
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: e.project, SessionID: "s3"}}, e.fsys.takeStamps())
}

// A denied write maps to the shared marker plus the escalation hint (isError):
// exact two-line text, code FS_SANDBOX_DENIED, name FsError; also for edit and for a real
// containment denial (a path outside the workspace).
func TestSandboxDenialMapping(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	e.fsys.rejectWith = fs.NewError(fs.CodeSandboxDenied, "denied", nil)
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")

	e.fsys.rejectWith = nil
	outside := filepath.Join(e.dir, "outside.txt")
	r = e.call("write", args{"file_path": outside, "content": "x"})
	requireFailure(t, r, denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
	assert.NoFileExists(t, outside)

	require.NoError(t, os.WriteFile(outside, []byte("old"), 0o644))
	requireOK(t, e.call("read", args{"file_path": outside}))
	r = e.call("edit", args{"file_path": outside, "old_string": "old", "new_string": "new"})
	requireFailure(t, r, denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
	b, _ := os.ReadFile(outside)
	assert.Equal(t, "old", string(b))
}

// A non-FS_SANDBOX_DENIED provider error passes through unchanged (and the
// stale-version remedy still applies to its own code).
func TestSandboxOtherErrorsPassThrough(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	e.fsys.rejectWith = fs.NewError(fs.CodeIOError, "boom", nil)
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, "Error: boom", "FS_IO_ERROR")
	e.fsys.rejectWith = fs.NewError(fs.CodeStaleVersion, "blocked", nil)
	r = e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, "Error: blocked — re-read the file, then retry", "FS_STALE_VERSION")
}

// docs/tool-fs.md "Observations and events": editing a never-read file under read-only reports
// FS_NOT_OBSERVED (the intent runs before the provider), not the sandbox marker.
func TestSandboxEditIntentPrecedesFence(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{mode: sandbox.ReadOnly})
	p := filepath.Join(e.project, "a.txt")
	require.NoError(t, os.WriteFile(p, []byte("a"), 0o644))
	r := e.call("edit", args{"file_path": "a.txt", "old_string": "a", "new_string": "b"})
	requireFailure(t, r, `Error: cannot modify "`+p+`": file has not been read — read the file, then retry`, "FS_NOT_OBSERVED")
	assert.Empty(t, e.fsys.takeStamps(), "the provider was never reached")
}

// An approved escalation stamps the granted mode onto that write: the approver
// is asked once with the audit reason; the grant rides exactly that call (docs/tool-fs.md
// "Sandbox escalation").
func TestSandboxApprovedEscalation(t *testing.T) {
	a := &recordingApprover{outcome: tools.AllowedOnce}
	e := newSandboxEnv(t, sandboxOptions{mode: sandbox.ReadOnly, approver: a})
	r := e.call("write", args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "danger-full-access", "justification": "the test needs it"})
	requireOK(t, r)
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.DangerFullAccess, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
	assert.Equal(t, []tools.ApprovalRequest{{Session: e.session, ToolName: "write", CallID: "call-1", Reason: "escalate sandbox to danger-full-access: the test needs it",
		Details: &tools.ApprovalDetails{Path: filepath.Join(e.project, "a.txt"), Mode: "danger-full-access", CurrentMode: "read-only",
			Justification: "the test needs it", Previews: []tools.ApprovalPreview{{Label: "Content", Text: "x"}}}}}, a.requests())
	assert.FileExists(t, filepath.Join(e.project, "a.txt"))

	// The next plain call runs under the standing mode again; nothing was recorded.
	r = e.call("write", args{"file_path": "a.txt", "content": "y"})
	requireFailure(t, r, denial(sandbox.ReadOnly), "FS_SANDBOX_DENIED")
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.ReadOnly, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
	_, overridden := e.policy.OverrideOf(e.session)
	assert.False(t, overridden, "a grant is never persisted")
}

// The approval request of an escalated write or edit describes the call: its path resolved as
// the call resolves it (relative to the session's workspace, and where a symlink takes it), the
// content of a write, the old and new strings of an edit (replace_all noted).
func TestSandboxEscalationDescribesTheCall(t *testing.T) {
	a := &recordingApprover{outcome: tools.Rejected}
	e := newSandboxEnv(t, sandboxOptions{approver: a})
	require.NoError(t, os.Mkdir(filepath.Join(e.dir, "elsewhere"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(e.dir, "elsewhere"), filepath.Join(e.project, "link")))
	esc := args{"sandbox_permissions": "danger-full-access", "justification": "why"}
	with := func(a args) args {
		for k, v := range esc {
			a[k] = v
		}
		return a
	}
	e.call("write", with(args{"file_path": "link/x.txt", "content": "line 1\nline 2\n"}))
	e.call("edit", with(args{"file_path": filepath.Join(e.project, "b.txt"), "old_string": "a", "new_string": "b", "replace_all": true}))
	e.call("write", with(args{"file_path": "loop/\x00", "content": ""}))
	got := a.requests()
	require.Len(t, got, 3)
	assert.Equal(t, &tools.ApprovalDetails{Path: filepath.Join(e.project, "link", "x.txt"), ResolvedPath: filepath.Join(e.dir, "elsewhere", "x.txt"),
		Mode: "danger-full-access", CurrentMode: "workspace-write", Justification: "why",
		Previews: []tools.ApprovalPreview{{Label: "Content", Text: "line 1\nline 2\n"}}}, got[0].Details)
	assert.Equal(t, &tools.ApprovalDetails{Path: filepath.Join(e.project, "b.txt"),
		Mode: "danger-full-access", CurrentMode: "workspace-write", Justification: "why",
		Previews: []tools.ApprovalPreview{{Label: "Old string (every occurrence)", Text: "a"}, {Label: "New string", Text: "b"}}}, got[1].Details)
	assert.Equal(t, "loop/\x00", got[2].Details.Path, "a path that does not resolve is shown as sent")
}

// A granted workspace-write is still fenced; its denial names the granted mode.
func TestSandboxGrantedWorkspaceWriteStillFenced(t *testing.T) {
	a := &recordingApprover{outcome: tools.AllowedOnce}
	e := newSandboxEnv(t, sandboxOptions{mode: sandbox.ReadOnly, approver: a})
	outside := filepath.Join(e.dir, "out.txt")
	r := e.call("write", args{"file_path": outside, "content": "x", "sandbox_permissions": "workspace-write", "justification": "why"})
	requireFailure(t, r, denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
	assert.NoFileExists(t, outside)
	r = e.call("write", args{"file_path": "in.txt", "content": "x", "sandbox_permissions": "workspace-write", "justification": "why"})
	requireOK(t, r)
	assert.Len(t, a.requests(), 2)
}

// A rejected escalation fails closed with its own text and never mutates; the
// other non-grant outcomes and an approver failure behave the same way.
func TestSandboxEscalationRefusals(t *testing.T) {
	cases := []struct {
		approver *recordingApprover
		text     string
		code     string
	}{
		{&recordingApprover{outcome: tools.Rejected}, `Error: the user rejected escalating this operation to "danger-full-access"`, "SANDBOX_ESCALATION_REJECTED"},
		{&recordingApprover{outcome: tools.Cancelled}, `Error: approval for escalating to "danger-full-access" was cancelled`, "SANDBOX_ESCALATION_CANCELLED"},
		{&recordingApprover{outcome: tools.Unavailable}, `Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available`, "SANDBOX_ESCALATION_UNAVAILABLE"},
		{&recordingApprover{err: assert.AnError}, "Error: " + assert.AnError.Error(), ""},
	}
	for _, c := range cases {
		e := newSandboxEnv(t, sandboxOptions{approver: c.approver})
		p := filepath.Join(e.project, "a.txt")
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
		requireOK(t, e.call("read", args{"file_path": "a.txt"}))
		r := e.call("edit", args{"file_path": "a.txt", "old_string": "x", "new_string": "y", "sandbox_permissions": "danger-full-access", "justification": "the test needs it"})
		requireEscalationFailure(t, r, c.text, c.code)
		assert.Empty(t, e.fsys.takeStamps(), "never mutates")
		assert.Len(t, c.approver.requests(), 1)
		b, _ := os.ReadFile(p)
		assert.Equal(t, "x", string(b))
	}
}

// Escalation without an approval service fails closed, and so does escalation with an
// approval service but no agent; and a request that does not strictly widen never
// asks (the order of docs/tool-fs.md "Sandbox escalation").
func TestSandboxEscalationFailsClosed(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	r := e.call("write", args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "danger-full-access", "justification": "why"})
	requireEscalationFailure(t, r, `Error: sandbox escalation to "danger-full-access" requires approval, but no approval service is composed`, "SANDBOX_ESCALATION_NO_APPROVAL_SERVICE")

	a := &recordingApprover{outcome: tools.AllowedOnce}
	e = newSandboxEnv(t, sandboxOptions{approver: a})
	r = e.callIn(nil, "write", args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "danger-full-access", "justification": "why"})
	requireEscalationFailure(t, r, `Error: sandbox escalation to "danger-full-access" requires approval, but the call has no agent to route it through`, "SANDBOX_ESCALATION_NO_AGENT")
	r = e.call("write", args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "workspace-write", "justification": "why"})
	requireEscalationFailure(t, r, `Error: sandbox escalation to "workspace-write" is not strictly wider than this call's current "workspace-write" mode`, "SANDBOX_ESCALATION_NOT_WIDER")
	require.NoError(t, e.policy.SetMode(e.session, sandbox.DangerFullAccess))
	r = e.call("edit", args{"file_path": "a.txt", "old_string": "x", "new_string": "y", "sandbox_permissions": "danger-full-access", "justification": "why"})
	requireEscalationFailure(t, r, `Error: sandbox escalation to "danger-full-access" is not strictly wider than this call's current "danger-full-access" mode`, "SANDBOX_ESCALATION_NOT_WIDER")
	assert.Empty(t, a.requests(), "never asked")
	assert.Empty(t, e.fsys.takeStamps())
	assert.NoFileExists(t, filepath.Join(e.project, "a.txt"))
}

// Rejects the escalation argument pairing (one field without the other), for
// both tools, before any approval or I/O; an unadvertised value is refused by the schema.
func TestSandboxEscalationPairing(t *testing.T) {
	a := &recordingApprover{outcome: tools.AllowedOnce}
	e := newSandboxEnv(t, sandboxOptions{approver: a})
	base := map[string]args{
		"write": {"file_path": "a.txt", "content": "y"},
		"edit":  {"file_path": "a.txt", "old_string": "x", "new_string": "y"},
	}
	cases := []struct {
		extra args
		text  string
	}{
		{args{"sandbox_permissions": "workspace-write"}, "Error: invalid escalation: sandbox_permissions requires a justification"},
		{args{"justification": "why"}, "Error: invalid escalation: justification is only valid together with sandbox_permissions"},
		{args{"sandbox_permissions": "danger-full-access", "justification": " \t"}, "Error: invalid justification: expected a non-empty sentence"},
	}
	for _, tool := range []string{"write", "edit"} {
		for _, c := range cases {
			in := args{}
			for k, v := range base[tool] {
				in[k] = v
			}
			for k, v := range c.extra {
				in[k] = v
			}
			requireFailure(t, e.call(tool, in), c.text, "")
		}
		in := args{"sandbox_permissions": "read-only", "justification": "why"}
		for k, v := range base[tool] {
			in[k] = v
		}
		r := e.call(tool, in)
		require.True(t, r.IsError)
		assert.Equal(t, tools.CodeInvalidArgs, r.Code(), "outside the advertised enum")
	}
	assert.Empty(t, a.requests())
	assert.Empty(t, e.fsys.takeStamps())
}

// The approval service is probed per call: one composed after tool-fs loaded is used.
func TestSandboxApprovalProbedPerCall(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{mode: sandbox.ReadOnly})
	a := &recordingApprover{outcome: tools.AllowedOnce}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, kernel.Module{ID: "late-approval", Apply: func(kc *kernel.Context, _ any) error {
		_, err := tools.Approval.Provide(kc, a)
		return err
	}}, nil))
	requireOK(t, e.call("write", args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "workspace-write", "justification": "why"}))
	assert.Len(t, a.requests(), 1)
}

// Cancellation of the call reaches the approver through the context.
func TestSandboxEscalationCancelled(t *testing.T) {
	seen := make(chan struct{})
	e := newSandboxEnv(t, sandboxOptions{approver: approverFunc(func(ctx context.Context, _ tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
		close(seen)
		<-ctx.Done()
		return tools.Cancelled, nil
	})})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-seen; cancel() }()
	r := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "write", Session: e.session,
		Args: args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "danger-full-access", "justification": "why"}})
	require.True(t, r.IsError)
	requireEscalationFailure(t, r, `Error: approval for escalating to "danger-full-access" was cancelled`, "SANDBOX_ESCALATION_CANCELLED")
	assert.Empty(t, e.fsys.takeStamps())
	assert.NoFileExists(t, filepath.Join(e.project, "a.txt"))
}

type approverFunc func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error)

func (f approverFunc) Request(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	return f(ctx, req)
}

// An approved escalation stamps the granted mode onto that write, through the
// real user-approval service and an approval/request answerer; under the never policy the same
// request is rejected without reaching the answerer (docs/sandbox.md "The approval service").
func TestSandboxEscalationThroughUserApproval(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{mode: sandbox.ReadOnly})
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, userapproval.Plugin, nil))
	var reasons []string
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, kernel.Module{ID: "answerer", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.RequestEvent.On(kc, func(_ context.Context, req *userapproval.Request, _ func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
			reasons = append(reasons, req.ToolName+": "+req.Reason)
			return tools.AllowedOnce, nil
		})
		return err
	}}, nil))
	escalate := args{"file_path": "a.txt", "content": "x", "sandbox_permissions": "danger-full-access", "justification": "the test needs it"}
	requireOK(t, e.call("write", escalate))
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.DangerFullAccess, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
	assert.Equal(t, []string{"write: escalate sandbox to danger-full-access: the test needs it"}, reasons)

	a, ok := tools.Approval.Get(e.root)
	require.True(t, ok)
	require.NoError(t, a.(*userapproval.Service).SetPolicy(e.session, userapproval.PolicyNever))
	requireEscalationFailure(t, e.call("write", escalate), `Error: the user rejected escalating this operation to "danger-full-access"`, "SANDBOX_ESCALATION_REJECTED")
	assert.Len(t, reasons, 1, "never decides before any answerer")
	assert.Empty(t, e.fsys.takeStamps())
}

// The policy service is probed per call: once it is gone, write and edit fail closed before any
// I/O; a policy composed again is used at once.
func TestSandboxPolicyProbedPerCall(t *testing.T) {
	e := newSandboxEnv(t, sandboxOptions{})
	var policyFiber *kernel.Fiber
	for _, f := range e.root.Kernel().Fibers() {
		if f.Module().ID == sandboxpolicy.ID {
			policyFiber = f
		}
	}
	require.NotNil(t, policyFiber)
	kerneltest.RequireDispose(t, policyFiber)
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, "Error: tool-fs: the mounted filesystem confines but no sandbox policy service is composed", "")
	assert.Empty(t, e.fsys.takeStamps())
	assert.NoFileExists(t, filepath.Join(e.project, "a.txt"))

	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: sandbox.DangerFullAccess, WorkspaceRoot: e.dir}))
	requireOK(t, e.call("write", args{"file_path": "a.txt", "content": "x"}))
	assert.Equal(t, []*sandbox.CallPolicy{{Mode: sandbox.DangerFullAccess, WorkspaceRoot: e.project, SessionID: "s1"}}, e.fsys.takeStamps())
}
