package hostfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/keylock"
)

// lockTable serializes the mutations of one provider per target key, first
// come first served, in-process only. Aliases of one file share its key and so
// its lock. The zero value is ready to use; an entry exists only while some
// mutation holds or waits for the key.
type lockTable struct {
	t keylock.Table
}

// acquire waits for the key's turn. An uncontended acquire always succeeds; a
// caller that must wait and whose ctx ends first gets FS_ABORTED
// "<verb> aborted" and holds nothing. release must be called exactly once.
func (l *lockTable) acquire(ctx context.Context, key fs.TargetKey, verb string) (release func(), err error) {
	release, err = l.t.Lock(ctx, string(key))
	if err != nil {
		return nil, fs.Aborted(verb, context.Cause(ctx))
	}
	return release, nil
}

// len reports how many keys are held or awaited.
func (l *lockTable) len() int { return l.t.Len() }

// lockCount reports how many target keys (and their directories) currently have a mutation running or
// queued (tests assert it is 0 after success, failure and cancellation).
func (p *Provider) lockCount() int { return p.locks.len() + p.dirLocks.len() }
