package toolfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// sessionRootsEnv is the default profile's confinement (workspace-write, reads: roots, no temp
// roots) over base/{agentless,session,extra}: the policy's configured root is agentless, the
// session's cwd is session, and each directory holds f.txt.
type sessionRootsEnv struct {
	rt                       *tools.Runtime
	agentless, session, more string
}

func newSessionRootsEnv(t *testing.T) *sessionRootsEnv {
	t.Helper()
	base := sandboxtest.OutsideDir(t)
	e := &sessionRootsEnv{agentless: filepath.Join(base, "agentless"), session: filepath.Join(base, "session"), more: filepath.Join(base, "more")}
	for _, d := range []string{e.agentless, e.session, e.more} {
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "f.txt"), []byte(filepath.Base(d)+"\n"), 0o644))
	}
	no := false
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: e.agentless, Reads: sandboxpolicy.ReadsRoots, TempRoots: &no}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, &fssandbox.Config{Cwd: e.agentless, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, nil))
	var ok bool
	e.rt, ok = tools.Service.Get(root)
	require.True(t, ok)
	return e
}

func (e *sessionRootsEnv) read(s *tools.Session, path string) tools.Result {
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: map[string]any{"file_path": path}, Session: s})
}

// docs/sandbox.md "Roots": a read meets the roots of the session that makes it, as a write does: a
// session whose cwd differs from the configured root has its read roots moved with its write roots
// (its cwd is readable, the configured root is not), and the roots its client named are readable
// too. On the old code reads resolved the agentless policy: the session's own cwd was refused and
// the configured root served.
func TestReadsMeetTheSessionsRoots(t *testing.T) {
	e := newSessionRootsEnv(t)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.session})

	r := e.read(s, "f.txt")
	require.False(t, r.IsError, r.Text())
	require.Contains(t, r.Text(), "session")
	r = e.read(s, filepath.Join(e.agentless, "f.txt"))
	require.True(t, r.IsError, r.Text())
	require.Equal(t, "FS_SANDBOX_DENIED", r.Code())
	require.Contains(t, r.Text(), `cannot read "`+filepath.Join(e.agentless, "f.txt")+`": it is outside the workspace roots`+"\n  "+e.session+"\n")
	r = e.read(s, filepath.Join(e.more, "f.txt"))
	require.True(t, r.IsError, r.Text())

	// The client names session and more: both are read, the configured root still is not.
	s.SetRoots(e.session, []string{e.more})
	r = e.read(s, filepath.Join(e.more, "f.txt"))
	require.False(t, r.IsError, r.Text())
	require.Contains(t, r.Text(), "more")
	r = e.read(s, filepath.Join(e.agentless, "f.txt"))
	require.True(t, r.IsError, r.Text())
	require.True(t, strings.Contains(r.Text(), "\n  "+e.more+"\n"), r.Text())

	// Without a session the configured root is the workspace.
	r = e.read(nil, filepath.Join(e.agentless, "f.txt"))
	require.False(t, r.IsError, r.Text())
}
