package fssandbox

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
)

var _ fs.Restorer = (*Provider)(nil)

// Restore implements fs.Restorer behind the same fence as WriteText (docs/history.md "The seam").
func (p *Provider) Restore(ctx context.Context, t fs.Target, r fs.Restoration) (fs.Version, error) {
	d, err := p.fence(ctx, t)
	if err != nil {
		return "", fs.FromOS(fs.VerbWrite, t.DisplayPath, err)
	}
	if d.beneath == nil {
		return p.local.Restore(ctx, d.target, r)
	}
	return p.local.RestoreBeneath(d.reading(ctx), d.target, r, *d.beneath)
}

var _ fs.DirPruner = (*Provider)(nil)

// PruneDirs implements fs.DirPruner behind the fence of t's restoration: nothing is removed where
// the restoration is denied, and under workspace-write only directories strictly beneath the
// writable root that holds t.
func (p *Provider) PruneDirs(ctx context.Context, t fs.Target, dirs []string) []string {
	d, err := p.fence(ctx, t)
	if err != nil {
		return nil
	}
	if d.beneath == nil {
		return p.local.PruneDirs(ctx, d.target, dirs)
	}
	return p.local.PruneDirsBeneath(ctx, d.target, dirs, *d.beneath)
}
