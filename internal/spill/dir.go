package spill

import (
	"path/filepath"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// DefaultDir is where the search tools save their over-cap results: cordon/spill under the user's
// state directory (lookup reads the environment, os.LookupEnv). A confining host makes it a
// read-only root, so the model can read the list a result says was saved (docs/sandbox.md "Roots").
func DefaultDir(lookup func(string) (string, bool)) (string, error) {
	dir, err := statedir.StateHome(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "cordon", "spill"), nil
}
