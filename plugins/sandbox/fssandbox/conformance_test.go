package fssandbox_test

import (
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/fstest"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// fs-sandbox keeps the fs seam's contract (the conformance kit, docs/testing.md) under the two
// modes that write: workspace-write with the kit's root as the workspace (every mutation confined
// beneath it) and danger-full-access.
func TestConformance(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.DangerFullAccess} {
		t.Run(string(mode), func(t *testing.T) {
			fstest.TestFileSystem(t, func(t *testing.T, root string) fs.FileSystem {
				p, err := fssandbox.New(fssandbox.Config{Cwd: root}, &fakePolicy{mode: mode, root: root}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return p
			})
		})
	}
}
