package history

import (
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// DefaultDir is the store's directory: $CORDON_HOME/history when CORDON_HOME is not blank, else
// <state directory>/cordon/history (statedir), beside the attachment store.
func DefaultDir(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup("CORDON_HOME"); ok && strings.TrimSpace(v) != "" {
		return filepath.Abs(filepath.Join(v, "history"))
	}
	d, err := statedir.StateHome(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "cordon", "history"), nil
}
