package hostfs

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// ErrForeignTarget is wrapped by the error of a mutation whose target key is
// not an absolute path: such a target was not produced by Resolve, and
// writing it would land relative to the process working directory.
var ErrForeignTarget = errors.New("fs-local: target key is not an absolute path (targets come from Resolve)")

// checkKey refuses a target this provider cannot have produced.
func checkKey(t fs.Target) error {
	if !filepath.IsAbs(string(t.Key)) {
		return fmt.Errorf("%w: %q", ErrForeignTarget, string(t.Key))
	}
	return nil
}
