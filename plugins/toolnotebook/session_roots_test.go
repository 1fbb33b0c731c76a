package toolnotebook_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/toolnotebook"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/sandbox.md "Roots": notebook_edit reads the notebook under the call's policy, as it writes
// it: under confined reads, a notebook in the session's workspace is edited even when the configured
// root is elsewhere. On the old code its read met the agentless roots and was refused.
func TestNotebookEditReadsUnderTheSessionsRoots(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	configured, cwd := filepath.Join(base, "configured"), filepath.Join(base, "session")
	require.NoError(t, os.Mkdir(configured, 0o755))
	require.NoError(t, os.Mkdir(cwd, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "a.ipynb"), []byte(notebookText(t)), 0o644))
	no := false
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: configured, Reads: sandboxpolicy.ReadsRoots, TempRoots: &no}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, &fssandbox.Config{Cwd: configured, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolnotebook.Plugin, nil))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: cwd})
	call := func(name string, a args) tools.Result {
		return rt.Execute(context.Background(), tools.Call{CallID: name, Name: name, Args: a, Session: s})
	}
	r := call("read", args{"file_path": "a.ipynb"})
	require.False(t, r.IsError, r.Text())
	r = call("notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "code0002", "new_source": "print('bye')"})
	require.False(t, r.IsError, r.Text())
	b, err := os.ReadFile(filepath.Join(cwd, "a.ipynb"))
	require.NoError(t, err)
	require.Contains(t, string(b), "print('bye')")
}
