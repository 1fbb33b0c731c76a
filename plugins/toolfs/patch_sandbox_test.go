package toolfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// apply_patch over the real sandboxed stack of this package's tests: tool-apply-patch shares the
// sandbox hook of write and edit (plugins/tools/filetool), so the same fences and escalation apply.
// docs/apply_patch.md "Sandbox": every target, a move's destination included, is fenced as write
// is, protected paths too, and a denial offers the same escalation.
func TestPatchSandbox(t *testing.T) {
	approver := &recordingApprover{outcome: tools.AllowedOnce}
	e := newRealSandbox(t, sandbox.WorkspaceWrite, approver)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolapplypatch.Plugin, nil))
	require.NoError(t, os.WriteFile(filepath.Join(e.ws, "a.txt"), []byte("a\n"), 0o644))
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	patch := func(body string, extra args) tools.Result {
		a := args{"input": "*** Begin Patch\n" + body + "*** End Patch\n"}
		for k, v := range extra {
			a[k] = v
		}
		return e.call("apply_patch", a)
	}
	outside := filepath.Join(e.out, "x.txt")
	require.NoError(t, os.MkdirAll(filepath.Join(e.ws, ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(e.ws, ".git", "config"), []byte("c\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(e.ws, ".git"), filepath.Join(e.ws, "alias")))
	requireOK(t, e.call("read", args{"file_path": ".git/config"}))
	for name, body := range map[string]string{
		"add outside":       "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: " + outside + "\n+x\n",
		"move outside":      "*** Update File: a.txt\n*** Move to: " + outside + "\n@@\n-a\n+A\n",
		"protected .git":    "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: .git/hooks/post-commit\n+x\n",
		"relative escape":   "*** Add File: ../out/x.txt\n+x\n",
		"through a symlink": "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: alias/hooks/pre-commit\n+x\n",
		"delete protected":  "*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: .git/config\n",
		"move out of .git":  "*** Update File: .git/config\n*** Move to: config\n@@\n-c\n+C\n",
	} {
		t.Run(name, func(t *testing.T) {
			requireFailure(t, patch(body, nil), denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")
			assert.Equal(t, "a\n", readString(t, filepath.Join(e.ws, "a.txt")))
			assert.Equal(t, "c\n", readString(t, filepath.Join(e.ws, ".git", "config")))
			assert.Empty(t, dirNames(t, e.out))
			assert.ElementsMatch(t, []string{"a.txt", ".git", "alias"}, dirNames(t, e.ws))
			assert.NoDirExists(t, filepath.Join(e.ws, ".git", "hooks"))
		})
	}
	// The escalation of write: approved, the same patch lands.
	r := patch("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: "+outside+"\n+x\n",
		args{"sandbox_permissions": "danger-full-access", "justification": "the patch writes outside"})
	requireOK(t, r)
	assert.Equal(t, "A\n", readString(t, filepath.Join(e.ws, "a.txt")))
	assert.Equal(t, "x\n", readString(t, outside))
	reqs := approver.requests()
	require.Len(t, reqs, 1)
	require.Equal(t, "apply_patch", reqs[0].ToolName)
	require.Equal(t, []tools.ApprovalFile{
		{Op: tools.FileUpdate, Path: filepath.Join(e.ws, "a.txt"), Preview: "@@\n-a\n+A\n"},
		{Op: tools.FileAdd, Path: outside, Mark: tools.MarkOutside, Preview: "x\n"},
	}, reqs[0].Details.Files)
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}
