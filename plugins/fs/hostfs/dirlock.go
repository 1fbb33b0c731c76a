package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// lockTarget takes everything a mutation of key holds for its whole
// probe-guard-write-publish sequence, in this order:
//
//  1. the per-target FIFO lock (in-process; aliases share it);
//  2. an in-process lock on the target's directory, so goroutines of this
//     process queue for step 3 instead of polling;
//  3. an advisory flock on that directory, so that mutations from other
//     processes using this provider (two harness instances on one repository)
//     cannot interleave between the version check and the publication: a
//     guarded write from a stale version then fails FS_STALE_VERSION instead of
//     losing the other process's update.
//
// The directory is the target's parent, or its nearest existing ancestor when
// the parent is still to be created. Where the filesystem refuses flock (some
// network filesystems) step 3 is skipped: the in-process guarantees remain.
// Only waiting looks at ctx (FS_ABORTED "<verb> aborted").
func (p *Provider) lockTarget(ctx context.Context, key fs.TargetKey, verb string) (release func(), err error) {
	releaseTarget, err := p.locks.acquire(ctx, key, verb)
	if err != nil {
		return nil, err
	}
	dir := existingDir(filepath.Dir(string(key)))
	releaseDir, err := p.dirLocks.acquire(ctx, fs.TargetKey(dir), verb)
	if err != nil {
		releaseTarget()
		return nil, err
	}
	unlock, err := flockDir(ctx, dir, verb)
	if err != nil {
		releaseDir()
		releaseTarget()
		return nil, err
	}
	return func() {
		unlock()
		releaseDir()
		releaseTarget()
	}, nil
}

// existingDir returns dir or its nearest existing ancestor.
func existingDir(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// flockDir takes an exclusive advisory lock on dir, polling with a growing
// pause while another process holds it. The returned function releases it.
func flockDir(ctx context.Context, dir, verb string) (unlock func(), err error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return func() {}, nil // nothing to lock: the in-process locks still hold
	}
	pause := 100 * time.Microsecond
	for {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return func() { _ = unix.Close(fd) }, nil // closing the descriptor releases the lock
		case errors.Is(err, unix.EINTR):
			continue
		case !errors.Is(err, unix.EWOULDBLOCK):
			_ = unix.Close(fd)
			return func() {}, nil // flock unsupported here
		}
		select {
		case <-ctx.Done():
			_ = unix.Close(fd)
			return nil, fs.Aborted(verb, context.Cause(ctx))
		case <-time.After(pause):
		}
		pause = min(2*pause, 10*time.Millisecond)
	}
}
