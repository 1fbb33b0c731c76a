package fslocal_test

import (
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/fstest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// fs-local keeps the fs seam's contract (the conformance kit, docs/testing.md).
//
// snippet: docs/testing.md fstest
func TestConformance(t *testing.T) {
	fstest.TestFileSystem(t, func(t *testing.T, root string) fs.FileSystem {
		p, err := fslocal.New(fslocal.Config{Cwd: root}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	})
}

// end snippet
