package fshistory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Under fs-sandbox, undo runs behind the sandbox's fence like write: it works in the workspace
// and is denied, changing nothing, where the session's mode forbids writing.
func TestUndoIsConfinedByTheSandbox(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: dir}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, nil))
	var cfg fshistory.Config
	cfg.Defaults()
	cfg.Dir = filepath.Join(t.TempDir(), "history")
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fshistory.Plugin, &cfg))
	rt, _ := tools.Service.Get(root)
	e := &env{root: root, rt: rt, dir: dir}
	s := tools.NewSession("s1")
	s.UpdateHeader(func(h *tools.Header) { h.Cwd = dir })

	p := e.path("a.txt")
	require.NoError(t, os.WriteFile(p, []byte("one\n"), 0o644))
	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "edit", args{"file_path": p, "old_string": "one", "new_string": "two"})
	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "edit", args{"file_path": p, "old_string": "two", "new_string": "three"})
	e.ok(t, s, "undo", args{"file_path": p})
	assert.Equal(t, "two\n", string(readBytes(t, p)))

	// The folders a creation made go with it, through the sandbox's fence (docs/history.md).
	made := e.path("new/deep/f.txt")
	e.ok(t, s, "write", args{"file_path": made, "content": "x\n"})
	r := e.ok(t, s, "undo", args{"file_path": made})
	assert.Contains(t, r.Text(), "\nIt also removed the folders that write created for it, now empty: \""+e.path("new/deep")+"\", \""+e.path("new")+"\".\n")
	assert.NoDirExists(t, e.path("new"))
	assert.DirExists(t, dir)

	policy, ok := sandbox.PolicyService.Get(root)
	require.True(t, ok)
	require.NoError(t, policy.SetMode(s, sandbox.ReadOnly))
	r = e.call(s, "undo", args{"file_path": p})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_SANDBOX_DENIED", r.Code())
	assert.Equal(t, `Error: cannot write "`+p+`": file access denied under read-only mode`, firstLine(r.Text()))
	assert.Equal(t, "two\n", string(readBytes(t, p)))
}
