package fssandbox

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

var _ fs.ChangeSetApplier = (*Provider)(nil)

// ApplyChanges implements fs.ChangeSetApplier: every target of the set, a move's destination
// included, passes the fence of WriteText with the per-call policy before anything is locked or
// staged (one refusal refuses the set), then fs-local publishes the set all or nothing, each
// file confined beneath the writable root the fence found for it.
func (p *Provider) ApplyChanges(ctx context.Context, changes []fs.Change) ([]fs.ChangeOutcome, error) {
	return p.local.ApplyChangesConfined(ctx, changes, func(ctx context.Context, t fs.Target) (fs.Target, *hostfs.Beneath, error) {
		d, err := p.fence(ctx, t)
		if err != nil {
			return fs.Target{}, nil, fs.FromOS(fs.VerbWrite, t.DisplayPath, err)
		}
		return d.target, d.beneath, nil
	})
}
