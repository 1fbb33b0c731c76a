package fstest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/cordon-dev/cordon/plugins/fs/fstest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// newRoot returns a fresh directory with no symbolic link on its path.
func newRoot() (string, func()) {
	dir, _ := os.MkdirTemp("", "fstest-example-")
	root, _ := filepath.EvalSymlinks(dir)
	return root, func() { _ = os.RemoveAll(dir) }
}

// fs-local keeps the contract: CheckFileSystem finds nothing.
func ExampleCheckFileSystem() {
	root, done := newRoot()
	defer done()
	p, _ := fslocal.New(fslocal.Config{Cwd: root}, nil)
	fmt.Println(fstest.CheckFileSystem(context.Background(), p, root))
	// Output: <nil>
}

// A provider that writes whatever the intent says fails the checks of the guarded writes.
func ExampleCheckFileSystem_broken() {
	root, done := newRoot()
	defer done()
	p, _ := fslocal.New(fslocal.Config{Cwd: root}, nil)
	err := fstest.CheckFileSystem(context.Background(), ignoresIntent{p}, root)
	var r *fstest.Report
	if errors.As(err, &r) {
		var failed []string
		for _, v := range r.Violations {
			if !slices.Contains(failed, v.Check) {
				failed = append(failed, v.Check)
			}
		}
		fmt.Println(failed)
	}
	// Output: [WriteText/create-if-absent WriteText/replace-if-version WriteText/concurrent-guards]
}
