package hostfs

import (
	"context"
	"os"

	"github.com/cordon-dev/cordon/plugins/fs"
)

var _ fs.Restorer = (*Provider)(nil)

// Restore implements fs.Restorer (docs/history.md "The seam"): under t's per-target lock, the
// probe and the version check of a guarded WriteText (an absent file when Expect is "", none with
// Force), then the content published byte for byte as WriteText publishes (a replaced file keeps
// its metadata and is refused as WriteText refuses it; no BOM is kept or added; maxFileBytes
// bounds it), or the file removed. A file it creates gets Mode. The sandbox policy is ignored.
func (p *Provider) Restore(ctx context.Context, t fs.Target, r fs.Restoration) (fs.Version, error) {
	return p.restore(ctx, t, r, nil)
}

// RestoreBeneath is Restore with its directory operations confined beneath b (see
// WriteTextBeneath). A removal is checked against b by the key only.
func (p *Provider) RestoreBeneath(ctx context.Context, t fs.Target, r fs.Restoration, b Beneath) (fs.Version, error) {
	return p.restore(ctx, t, r, &b)
}

func (p *Provider) restore(ctx context.Context, t fs.Target, r fs.Restoration, b *Beneath) (_ fs.Version, err error) {
	defer func() { err = codedMutation(fs.VerbWrite, t, err) }()
	if err := checkKey(t); err != nil {
		return "", err
	}
	if err := b.check(t); err != nil {
		return "", err
	}
	release, err := p.lockTarget(ctx, t.Key, fs.VerbWrite)
	if err != nil {
		return "", err
	}
	defer release()

	key := string(t.Key)
	existing, exists, err := probe(key)
	if err != nil {
		return "", err
	}
	if exists && existing.Type != fs.TypeFile {
		return "", fs.WriteNotRegular(t.DisplayPath, nil)
	}
	if !r.Force {
		switch {
		case r.Expect == "" && exists:
			return "", fs.WriteChanged(t.DisplayPath)
		case r.Expect != "" && !exists:
			return "", fs.WriteNoLongerExists(t.DisplayPath)
		case r.Expect != "" && existing.Version != r.Expect:
			return "", fs.WriteChanged(t.DisplayPath)
		}
	}
	if r.Remove {
		if !exists {
			return "", nil
		}
		if err := checkAbort(ctx, fs.VerbWrite); err != nil {
			return "", err
		}
		pub := p.beforePublish(ctx, t, fs.VerbRestore, existing, true, nil, "", false, true, nil)
		defer pub.finish(ctx)
		if err := os.Remove(key); err != nil {
			return "", err
		}
		pub.published(ctx, "")
		return "", nil
	}
	opts := atomicOptions{display: t.DisplayPath, log: p.log, beneath: b, registry: p.registry, hooks: p.hooks}
	if exists {
		cr := currentCreds()
		if err := checkReplaceable(cr, key, existing, t.DisplayPath, fs.VerbWrite); err != nil {
			return "", err
		}
		if opts.keep, err = metaOf(cr, key, existing); err != nil {
			return "", err
		}
	} else {
		opts.createIfAbsent = !r.Force
	}
	if size := int64(len(r.Content)); size > p.maxFileBytes {
		return "", fs.WriteTooLarge(t.DisplayPath, size, p.maxFileBytes)
	}
	content := string(r.Content)
	pub := p.beforePublish(ctx, t, fs.VerbRestore, existing, exists, nil, content, false, false, nil)
	defer pub.finish(ctx)
	if err := writeFileAtomic(ctx, key, content, opts); err != nil {
		return "", err
	}
	if !exists && r.Mode != 0 {
		if err := os.Chmod(key, os.FileMode(r.Mode)&(os.ModePerm|os.ModeSetuid|os.ModeSetgid|os.ModeSticky)); err != nil {
			p.log.Warn("restored file keeps the mode creation gave it")
		}
	}
	v := p.versionAfter(t.Key)
	pub.published(ctx, v)
	return v, nil
}
