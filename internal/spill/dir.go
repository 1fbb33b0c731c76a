package spill

import (
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// DefaultDir is the directory that holds every process's spill directory: cordon/spill under the
// user's state directory (lookup reads the environment, os.LookupEnv).
func DefaultDir(lookup func(string) (string, bool)) (string, error) {
	dir, err := statedir.StateHome(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "cordon", "spill"), nil
}

// ProcessDir is where the search tools of this process save their over-cap results: a directory of
// DefaultDir named for this process alone ("p-" and 16 random hex digits, the same for every call
// in the process). A confining host makes it a read-only root, so the model can read the list a
// result says was saved, and only the lists its own process saved (docs/sandbox.md "Roots").
func ProcessDir(lookup func(string) (string, bool)) (string, error) {
	base, err := DefaultDir(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, processName()), nil
}

var processName = sync.OnceValue(func() string {
	var b [8]byte
	rand.Read(b[:])
	return processPrefix + hex.EncodeToString(b[:])
})

const processPrefix = "p-"

// isProcessDir reports whether name is the name of a process's spill directory.
func isProcessDir(name string) bool {
	h, ok := strings.CutPrefix(name, processPrefix)
	if !ok || len(h) != 16 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}
