package hostfs

import (
	"bytes"
	"context"
	"os"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// PublishHook is what a provider reports its published mutations to (fs.PublishedEvent, see
// docs/history.md "The seam"). Wanted says whether anyone listens: without it the prior bytes are
// not kept open. Published runs under the target's lock, after publication.
type PublishHook struct {
	Wanted    func() bool
	Published func(ctx context.Context, a fs.PublishedArgs)
}

// SetPublishHook installs h; call it before the provider serves.
func (p *Provider) SetPublishHook(h PublishHook) { p.publish = &h }

// prior is the prior state of a mutation's target, kept for the publish hook.
type prior struct {
	info *fs.PriorFile
	f    *os.File // the old inode, open across its replacement
}

// keepPrior opens the target's current inode when a publish hook listens, so that its bytes stay
// readable after the rename replaced it; raw, when not nil, is the content already in memory.
func (p *Provider) keepPrior(key string, existing probeInfo, exists bool, raw []byte) *prior {
	if p.publish == nil || !p.publish.Wanted() {
		return nil
	}
	pr := &prior{}
	if !exists {
		return pr
	}
	pr.info = &fs.PriorFile{Version: existing.Version, Mode: uint32(existing.Mode), Size: existing.Size}
	if raw != nil {
		pr.info.Size, pr.info.Content = int64(len(raw)), bytes.NewReader(raw)
		return pr
	}
	if f, err := os.Open(key); err == nil {
		pr.f, pr.info.Content = f, f
	}
	return pr
}

// published reports a committed mutation and releases the prior state.
func (p *Provider) published(ctx context.Context, pr *prior, t fs.Target, verb string, after fs.Version) {
	if pr == nil {
		return
	}
	if pr.f != nil {
		defer pr.f.Close()
	}
	p.publish.Published(ctx, fs.PublishedArgs{Target: t, Verb: verb, Prior: pr.info, Version: after})
}

// close releases the prior state of a mutation that did not commit.
func (pr *prior) close() {
	if pr != nil && pr.f != nil {
		pr.f.Close()
		pr.f = nil
	}
}

// KernelPublishHook is the hook of a provider plugin: fs.PublishedEvent emitted contained through
// kc, the prior bytes kept only while a listener is live.
func KernelPublishHook(kc *kernel.Context) PublishHook {
	return PublishHook{
		Wanted: func() bool { return fs.PublishedEvent.Listeners(kc) > 0 },
		Published: func(ctx context.Context, a fs.PublishedArgs) {
			fs.PublishedEvent.EmitContained(ctx, kc, a)
		},
	}
}
