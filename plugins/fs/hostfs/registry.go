package hostfs

import (
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/statedir"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

// stagingRegistry returns this process's registry of staging directories,
// "cordon/staging" under the user's state directory, sweeping it the first
// time (staging.For); nil, with a warning, when no state directory can be
// named: writes then work as before, but the residue of a killed write stays
// until it is removed by hand (docs/fs.md).
func stagingRegistry(log *zap.Logger) *staging.Registry {
	dir, err := statedir.StateHome(os.LookupEnv)
	if err != nil {
		log.Warn("no state directory: the residue of a killed write will not be swept", zap.Error(err))
		return nil
	}
	return staging.For(filepath.Join(dir, "cordon", "staging"), log)
}

// journalDir returns the journal directory of this process's change sets on the workspace cwd,
// "cordon/txn" under the user's state directory, after recovering (once per process) the change
// sets of cwd that dead processes left there (txn.RecoverOnce); nil when no private state
// directory can be had: change sets then publish unjournaled (docs/apply_patch.md,
// docs/journal-threat-model.md).
func journalDir(cwd string, log *zap.Logger) *txn.Dir {
	dir, err := statedir.Cordon(os.LookupEnv)
	if err == nil {
		var d *txn.Dir
		if d, err = txn.Open(filepath.Join(dir, "txn"), cwd); err == nil {
			txn.RecoverOnce(d, log)
			return d
		}
	}
	log.Warn("no change-set journal: a set interrupted by a crash will not be finished", zap.Error(err))
	return nil
}
