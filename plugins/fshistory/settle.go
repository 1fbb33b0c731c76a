package fshistory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/proc"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// settleMaxBytes bounds what settle reads of a file to compare it.
const settleMaxBytes = 1 << 30

// settle resolves the pending records that processes killed mid-change left (docs/history.md
// "Crash safety"): the file holds the bytes after the change, so it was published (completed at
// the file's version); the bytes before, so it was not (discarded); neither, so it changed since
// (kept, marked interrupted). A live process's pending record is left to it.
func (r *recorder) settle(st history.Store) {
	recs, err := st.List(history.Match{Pending: true}, func(x *history.Record) bool { return x.PID != processID && !proc.Alive(x.PID) })
	if err != nil {
		r.warn("history: cannot list the pending changes", err)
		return
	}
	ctx := context.Background()
	for _, x := range recs {
		if err := r.settleOne(ctx, st, x); err != nil {
			r.log.Warn("history: cannot settle a pending change", zap.String("change", x.ID), zap.Error(err))
		}
	}
}

func (r *recorder) settleOne(ctx context.Context, st history.Store, x history.Record) error {
	t, err := r.fs.Resolve(ctx, x.Path, fs.ResolveOptions{})
	if err != nil {
		return err
	}
	info, err := r.fs.Stat(ctx, t)
	if err != nil {
		return err
	}
	digest := ""
	if info != nil {
		data, err := r.fs.ReadBytes(ctx, t, settleMaxBytes)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		digest = hex.EncodeToString(sum[:])
	}
	switch {
	case info == nil && x.AfterDigest == "", info != nil && digest == x.AfterDigest:
		v := ""
		if info != nil {
			v = string(info.Version)
		}
		return st.Complete(x.ID, v, false)
	case info == nil && !x.Existed, info != nil && x.Existed && digest == x.Digest:
		return st.Discard(x.ID)
	}
	return st.Complete(x.ID, "", true)
}
