package fslocal

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// swept remembers the targets whose crash residue this process already looked for.
var swept sync.Map

// sweepResidue removes staging directories that a killed process left beside path: entries named
// ".<base>.<pid>.<uuid>.tmpdir" whose pid is not a live process on this host. It runs once per
// target per process, after a committed write to that target (under the target's lock), so a
// crash costs at most one stale copy until the target is written again. Directories of live
// processes, including this one, are never touched.
func sweepResidue(path string, log *zap.Logger) {
	if _, done := swept.LoadOrStore(path, struct{}{}); done {
		return
	}
	dir := filepath.Dir(path)
	d, err := openDir(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	sweepNames(path, names, func(name string) error { return os.RemoveAll(filepath.Join(dir, name)) }, log)
}

// sweepNames removes, with remove, the entries among names (the directory of path) that are
// staging directories of dead processes for path's base name.
func sweepNames(path string, names []string, remove func(name string) error, log *zap.Logger) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	prefix, self := "."+stagingBase(base)+".", os.Getpid()
	for _, name := range names {
		pid, ok := stagingPID(name, prefix)
		if !ok || pid == self || pid <= 0 || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue
		}
		if err := remove(name); err == nil && log != nil {
			log.Info("removed staging residue of a dead process", zap.String("dir", filepath.Join(dir, name)))
		}
	}
}

// stagingPID parses the pid of a staging directory name ".<base>.<pid>.<uuid>.tmpdir".
func stagingPID(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".tmpdir")
	if !ok {
		return 0, false
	}
	pidText, uuid, ok := strings.Cut(rest, ".")
	if !ok || len(uuid) != 36 {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil
}
