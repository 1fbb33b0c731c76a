package toolfssearch_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/sandbox.md "Roots": glob and grep meet the roots of the session that searches (its cwd, and
// the roots its client named), not the configured root of an agentless call. On the old code the
// session's own cwd was refused and the configured root searched.
func TestSearchesMeetTheSessionsRoots(t *testing.T) {
	base := sandboxtest.OutsideDir(t)
	agentless, cwd, more := filepath.Join(base, "agentless"), filepath.Join(base, "session"), filepath.Join(base, "more")
	for _, d := range []string{agentless, cwd, more} {
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "f.txt"), []byte("needle\n"), 0o644))
	}
	no := false
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: agentless, Reads: sandboxpolicy.ReadsRoots, TempRoots: &no}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, &fssandbox.Config{Cwd: agentless, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfssearch.Plugin, nil))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: cwd})
	call := func(name, path string) tools.Result {
		args := map[string]any{"pattern": "*.txt"}
		if name == "grep" {
			args["pattern"] = "needle"
		}
		if path != "" {
			args["path"] = path
		}
		return rt.Execute(context.Background(), tools.Call{CallID: "c", Name: name, Args: args, Session: s})
	}
	for _, tool := range []string{"glob", "grep"} {
		r := call(tool, "")
		require.False(t, r.IsError, "%s: %s", tool, r.Text())
		require.Contains(t, r.Text(), "f.txt", tool)
		r = call(tool, agentless)
		require.True(t, r.IsError, "%s: %s", tool, r.Text())
		require.Equal(t, "FS_SANDBOX_DENIED", r.Code(), tool)
		r = call(tool, more)
		require.True(t, r.IsError, "%s: %s", tool, r.Text())
	}
	s.SetRoots(cwd, []string{more})
	for _, tool := range []string{"glob", "grep"} {
		r := call(tool, more)
		require.False(t, r.IsError, "%s: %s", tool, r.Text())
		require.Contains(t, r.Text(), "f.txt", tool)
		r = call(tool, agentless)
		require.True(t, r.IsError, "%s: %s", tool, r.Text())
	}
}
