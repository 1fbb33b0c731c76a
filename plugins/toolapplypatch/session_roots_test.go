package toolapplypatch_test

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
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/apply_patch.md "Errors", docs/sandbox.md "Roots": the look at a missing file behind the
// documented refusal is made under the call's policy, so under confined reads a session whose cwd
// is not the configured root still gets `file not found`, not "has not been read". On the old code
// the look met the agentless roots and was refused.
func TestPatchRefusalOfAMissingFileUnderTheSessionsRoots(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	configured, cwd := filepath.Join(base, "configured"), filepath.Join(base, "session")
	require.NoError(t, os.Mkdir(configured, 0o755))
	require.NoError(t, os.Mkdir(cwd, 0o755))
	no := false
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: configured, Reads: sandboxpolicy.ReadsRoots, TempRoots: &no}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, &fssandbox.Config{Cwd: configured, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolapplypatch.Plugin, nil))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: cwd})
	r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "apply_patch", Session: s,
		Args: map[string]any{"input": "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"}})
	require.True(t, r.IsError)
	require.Equal(t, `Error: cannot delete "`+filepath.Join(cwd, "gone.txt")+`": file not found`, r.Text())
	require.Equal(t, "FS_NOT_FOUND", r.Code())
}
