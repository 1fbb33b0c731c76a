package hostfs

import (
	"bytes"
	"context"
	"os"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// PublishHook is what a provider reports its mutations to (fs.PublishEvent, docs/history.md "The
// seam"). Wanted says whether anyone listens: without it nothing is reported and the prior bytes
// are not opened. Report runs under the target's lock.
type PublishHook struct {
	Wanted func() bool
	Report func(ctx context.Context, a fs.PublishArgs)
}

// KernelPublishHook is the hook of a provider plugin: fs.PublishEvent emitted contained through
// kc, only while a listener is live.
func KernelPublishHook(kc *kernel.Context) PublishHook {
	return PublishHook{
		Wanted: func() bool { return fs.PublishEvent.Listeners(kc) > 0 },
		Report: func(ctx context.Context, a fs.PublishArgs) { fs.PublishEvent.EmitContained(ctx, kc, a) },
	}
}

// SetPublishHook installs h; call it before the provider serves.
func (p *Provider) SetPublishHook(h PublishHook) { p.publish = &h }

// publication is one mutation being reported: PublishBefore was sent, PublishDone or
// PublishFailed (finish) follows.
type publication struct {
	p    *Provider
	args fs.PublishArgs
	f    *os.File // the prior file, open for PublishBefore
	done bool
}

// beforePublish reports PublishBefore for a mutation of t (nil when no one listens): the prior
// file (raw, when not nil, is its content already in memory; otherwise it is opened) and after,
// the bytes to be published; made, the directories a creation makes for t (fs.PublishArgs.MadeDirs).
func (p *Provider) beforePublish(ctx context.Context, t fs.Target, verb string, existing probeInfo, exists bool, raw []byte, after string, bom, removed bool, made []string) *publication {
	if p.publish == nil || !p.publish.Wanted() {
		return nil
	}
	pub := &publication{p: p, args: fs.PublishArgs{Phase: fs.PublishBefore, Target: t, Verb: verb, After: after, AfterBOM: bom, Removed: removed, MadeDirs: made}}
	if exists {
		pr := &fs.PriorFile{Version: existing.Version, Mode: uint32(existing.Mode), Size: existing.Size}
		if raw != nil {
			pr.Size, pr.Content, pr.Bytes = int64(len(raw)), bytes.NewReader(raw), raw
		} else if f, err := os.Open(string(t.Key)); err == nil {
			pub.f, pr.Content = f, f
		}
		pub.args.Prior = pr
	}
	p.publish.Report(ctx, pub.args)
	pub.args.After, pub.args.Prior, pub.args.MadeDirs = "", nil, nil // the later phases carry none
	return pub
}

// published reports PublishDone with the version after.
func (pub *publication) published(ctx context.Context, v fs.Version) {
	if pub == nil {
		return
	}
	pub.done = true
	pub.args.Phase, pub.args.Version = fs.PublishDone, v
	pub.p.publish.Report(ctx, pub.args)
}

// finish reports PublishFailed unless the mutation was published, and closes the prior file.
func (pub *publication) finish(ctx context.Context) {
	if pub == nil {
		return
	}
	if pub.f != nil {
		pub.f.Close()
	}
	if !pub.done {
		pub.args.Phase = fs.PublishFailed
		pub.p.publish.Report(context.WithoutCancel(ctx), pub.args)
	}
}
