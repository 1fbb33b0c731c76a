package fssandbox

import (
	"context"
	"iter"
	"strings"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// The primitives below are fs-local's. Under a policy that confines reads
// (sandbox.CallPolicy.ConfineReads, docs/sandbox.md "Roots") every one that
// reads bytes, lists or searches is fenced by readFence: the target must lie
// beneath a readable root, and the open itself happens on a descriptor of that
// root (hostfs.WithReadBeneath), so a symlink or a directory swapped in after
// the check is refused, not followed. Otherwise they are forwarded unchanged.

// readFence decides one read of t: ctx unchanged when reads are not confined;
// else ctx confining the read beneath the readable root that contains t's key,
// or the denial (ReadDenied) when none does. Resolution, containment and the
// display path are fs-local's; nothing is opened here.
func (p *Provider) readFence(ctx context.Context, t fs.Target) (context.Context, error) {
	pol := p.policyOf(sandbox.PolicyFrom(ctx))
	if !pol.ConfineReads || pol.Mode == sandbox.DangerFullAccess {
		return ctx, nil
	}
	roots := p.readableRoots(pol)
	key := string(t.Key)
	for _, root := range roots {
		a, ok, err := sandbox.UnderRoot(key, root, true)
		if err != nil {
			return ctx, err
		}
		if ok {
			display := t.DisplayPath
			return hostfs.WithReadBeneath(ctx, hostfs.ReadBeneath{Root: a, Deny: func(cause error) error {
				p.log.Warn("confined read refused at the syscall (a symlink beneath the root, or a directory moved out of it, after the check)",
					zap.String("path", display), zap.Error(cause))
				return ReadDenied(display, pol, roots, cause)
			}}), nil
		}
	}
	p.log.Debug("sandbox denied a read outside the roots", zap.String("path", t.DisplayPath), zap.Strings("roots", roots))
	return ctx, ReadDenied(t.DisplayPath, pol, roots, nil)
}

// readableRoots is sandbox.ReadableRoots(pol), remembered for a policy without temp roots (whose
// roots do not follow the environment): canonicalizing every root on every read is most of the
// fence's cost. A remembered root that has since become a symlink or moved is still safe: the read
// opens it without following any symlink (hostfs.ReadBeneath), so it can only be refused.
func (p *Provider) readableRoots(pol sandbox.CallPolicy) []string {
	if !pol.NoTempRoots {
		roots, ignored, _ := sandbox.ReadableRoots(pol)
		p.warnIgnored(ignored)
		return roots
	}
	key := string(pol.Mode) + "\x00" + pol.WorkspaceRoot + "\x00" + strings.Join(pol.Roots, "\x00") + "\x00\x00" + strings.Join(pol.ReadOnlyRoots, "\x00")
	if v, ok := p.readRoots.Load(key); ok {
		return v.([]string)
	}
	roots, _, _ := sandbox.ReadableRoots(pol)
	if p.readRootsN.Add(1) > maxRememberedRoots { // bounded: start over
		p.readRoots.Clear()
		p.readRootsN.Store(1)
	}
	p.readRoots.Store(key, roots)
	return roots
}

// maxRememberedRoots bounds the policies readableRoots remembers.
const maxRememberedRoots = 256

// ReadDenied is the refusal of a read, listing or search outside the readable
// roots (docs/sandbox.md "Roots"), FS_SANDBOX_DENIED. Its first line is the
// denial marker (sandbox.DenialMarker); the next ones name the path and the
// roots and say how the user widens them.
func ReadDenied(displayPath string, pol sandbox.CallPolicy, roots []string, cause error) *fs.Error {
	var b strings.Builder
	b.WriteString(sandbox.DenialMarker(pol.Mode))
	b.WriteString("\n" + `cannot read "` + displayPath + `": it is outside the workspace roots`)
	for _, r := range roots {
		b.WriteString("\n  " + r + rootAccess(r, pol))
	}
	b.WriteString("\n" + sandbox.WidenHint)
	return fs.NewError(fs.CodeSandboxDenied, b.String(), cause)
}

// rootAccess labels a root in a denial: " (read-only)" for a read-only root.
func rootAccess(root string, pol sandbox.CallPolicy) string {
	if pol.Mode != sandbox.WorkspaceWrite {
		return " (read-only)"
	}
	w, _ := sandbox.WritableRoots(pol)
	for _, x := range w {
		if x == root {
			return ""
		}
	}
	return " (read-only)"
}

// Resolve implements fs.FileSystem (fs-local's resolution).
func (p *Provider) Resolve(ctx context.Context, path string, opts fs.ResolveOptions) (fs.Target, error) {
	return p.local.Resolve(ctx, path, opts)
}

// ProcessPath implements fs.FileSystem.
func (p *Provider) ProcessPath(t fs.Target) string { return p.local.ProcessPath(t) }

// FileURL implements fs.FileSystem.
func (p *Provider) FileURL(t fs.Target) string { return p.local.FileURL(t) }

// Contains implements fs.FileSystem.
func (p *Provider) Contains(parent, child fs.Target) bool { return p.local.Contains(parent, child) }

// Stat implements fs.FileSystem, fenced (a file outside the roots is not
// even described).
func (p *Provider) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, err
	}
	return p.local.Stat(ctx, t)
}

// StatText implements fs.StatReader, fenced once for the look and the read.
func (p *Provider) StatText(ctx context.Context, t fs.Target, below int64) (*fs.Info, *fs.ReadOutcome, error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return p.local.StatText(ctx, t, below)
}

// Lstat implements fs.FileSystem (metadata of one path, never its bytes).
func (p *Provider) Lstat(ctx context.Context, path string, opts fs.LstatOptions) (*fs.PathInfo, error) {
	return p.local.Lstat(ctx, path, opts)
}

// ReadText implements fs.FileSystem, fenced.
func (p *Provider) ReadText(ctx context.Context, t fs.Target) (fs.ReadOutcome, error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return fs.ReadOutcome{}, err
	}
	return p.local.ReadText(ctx, t)
}

// StreamText implements fs.FileSystem, fenced.
func (p *Provider) StreamText(ctx context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, err
	}
	return p.local.StreamText(ctx, t)
}

// StreamTextBytes implements fs.TextByteStreamer, fenced.
func (p *Provider) StreamTextBytes(ctx context.Context, t fs.Target) (iter.Seq2[[]byte, error], error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, err
	}
	return p.local.StreamTextBytes(ctx, t)
}

// ReadBytes implements fs.FileSystem, fenced.
func (p *Provider) ReadBytes(ctx context.Context, t fs.Target, maxBytes int64) ([]byte, error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, err
	}
	return p.local.ReadBytes(ctx, t, maxBytes)
}

// ListDir implements fs.FileSystem, fenced.
func (p *Provider) ListDir(ctx context.Context, t fs.Target) ([]fs.DirEntry, error) {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return nil, err
	}
	return p.local.ListDir(ctx, t)
}

// Glob implements fs.Searcher (fs-local's search, fenced: the walk opens
// every directory beneath the root that contains the search root).
func (p *Provider) Glob(ctx context.Context, root fs.Target, q fs.GlobQuery) (fs.GlobResult, error) {
	ctx, err := p.readFence(ctx, root)
	if err != nil {
		return fs.GlobResult{}, err
	}
	return p.local.Glob(ctx, root, q)
}

// Grep implements fs.Searcher, fenced as Glob.
func (p *Provider) Grep(ctx context.Context, root fs.Target, q fs.GrepQuery, emit func(fs.LineMatch) error) (fs.GrepResult, error) {
	ctx, err := p.readFence(ctx, root)
	if err != nil {
		return fs.GrepResult{}, err
	}
	return p.local.Grep(ctx, root, q, emit)
}

// TextCharset is fs-local's: the charset a read decodes t from ("" for UTF-8,
// and for a target the fence refuses).
func (p *Provider) TextCharset(ctx context.Context, t fs.Target) string {
	ctx, err := p.readFence(ctx, t)
	if err != nil {
		return ""
	}
	return p.local.TextCharset(ctx, t)
}
