package staging

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/proc"
	"github.com/cordon-dev/cordon/internal/statedir"
)

// maxFileBytes bounds what a sweep reads of one registry file (a compacted file is far smaller).
const maxFileBytes = 64 << 20

// Sweep removes the staging directories that dead processes of this host recorded in dir, then
// their registry files, and returns how many directories it removed. Registries of live
// processes (locked, or with a live pid) and of other hosts are left alone, and so is any listed
// entry that is not a directory named for its process. Failures are logged, never returned: a
// sweep must not keep a provider from starting.
func Sweep(dir string, log *zap.Logger) int {
	if log == nil {
		log = zap.NewNop()
	}
	if err := statedir.CheckPrivateDir(dir); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			log.Warn("cannot sweep the staging registry", zap.String("dir", dir), zap.Error(err))
		}
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Warn("cannot sweep the staging registry", zap.String("dir", dir), zap.Error(err))
		return 0
	}
	removed := 0
	for _, e := range entries {
		pid, ok := filePID(e.Name())
		if !ok || pid == os.Getpid() || proc.Alive(pid) {
			continue
		}
		removed += sweepFile(filepath.Join(dir, e.Name()), pid, log)
	}
	return removed
}

// sweepFile sweeps one registry file of the dead process pid.
func sweepFile(path string, pid int, log *zap.Logger) int {
	// Only a regular file of this user that no one else can write is read; a FIFO does not block
	// (docs/journal-threat-model.md).
	f, err := statedir.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, statedir.ErrRefused) {
			log.Warn("refused a staging registry file Cordon did not write: left as it is, not run", zap.String("registry", path), zap.Error(err))
		}
		return 0
	}
	defer f.Close()
	if flock(f) != nil || !linked(f, path) {
		return 0 // a process (of another pid namespace) holds it, or it was replaced
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	if err != nil {
		return 0
	}
	host, dirs, ok := parse(data)
	if !ok || host != hostname {
		return 0
	}
	removed, failed := 0, false
	for _, d := range dirs {
		done, err := removeResidue(d, pid)
		switch {
		case err != nil:
			failed = true
			log.Warn("cannot remove the staging residue of a dead process", zap.String("dir", d), zap.Error(err))
		case done:
			removed++
			log.Info("removed the staging residue of a dead process", zap.String("dir", d))
		}
	}
	if !failed { // else kept, so a later start tries again
		_ = os.Remove(path)
	}
	return removed
}

// parse reads the records of a registry file: its host and the staging directories it lists
// and did not strike off, in the order recorded. A file with no complete record (its process
// died before the host record was written) lists nothing; ok is false for a file that does not start with a host record.
func parse(data []byte) (host string, dirs []string, ok bool) {
	data = data[:bytes.LastIndexByte(data, 0)+1] // a torn last record is dropped
	if len(data) == 0 {
		return hostname, nil, true
	}
	live, seen := map[string]bool{}, map[string]bool{}
	for i, rec := range bytes.Split(data, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		op, arg := rec[0], string(rec[1:])
		switch {
		case i == 0 && op == opHost:
			host, ok = arg, true
		case i == 0:
			return "", nil, false
		case op == opAdd:
			if !seen[arg] {
				seen[arg] = true
				dirs = append(dirs, arg)
			}
			live[arg] = true
		case op == opAbandon:
			live[arg] = false
		}
	}
	kept := dirs[:0]
	for _, d := range dirs {
		if live[d] {
			kept = append(kept, d)
		}
	}
	return host, kept, ok
}

// removeResidue removes the staging directory or linked temp file path of the dead process pid,
// if it is one: an absolute, clean path whose name is a staging directory name with pid naming a
// directory, or a linked temp file name (FileName) with pid naming a regular file, of this user
// (never a symlink). done reports a removal.
func removeResidue(path string, pid int) (done bool, err error) {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return false, nil
	}
	name := filepath.Base(path)
	owner, isDir := OwnerPID(name)
	if !isDir {
		var isFile bool
		if owner, isFile = FileOwnerPID(name); !isFile {
			return false, nil
		}
	}
	if owner != pid {
		return false, nil
	}
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
			return false, nil
		}
		return false, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Geteuid() || isDir != fi.IsDir() || !isDir && !fi.Mode().IsRegular() {
		return false, nil // not a staging directory (or temp file) of this user's
	}
	if err := os.RemoveAll(path); err != nil {
		return false, err
	}
	return true, nil
}

// filePID parses the pid of a registry file name "<pid>.<uuid>.staging".
func filePID(name string) (int, bool) {
	rest, ok := strings.CutSuffix(name, fileSuffix)
	if !ok {
		return 0, false
	}
	pidText, uuid, ok := strings.Cut(rest, ".")
	if !ok || len(uuid) != 36 {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}
