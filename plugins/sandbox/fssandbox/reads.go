package fssandbox

import (
	"context"
	"iter"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// The primitives below are never fenced: every mode reads everywhere. They are
// fs-local's, forwarded unchanged.

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

// Stat implements fs.FileSystem.
func (p *Provider) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	return p.local.Stat(ctx, t)
}

// Lstat implements fs.FileSystem.
func (p *Provider) Lstat(ctx context.Context, path string, opts fs.LstatOptions) (*fs.PathInfo, error) {
	return p.local.Lstat(ctx, path, opts)
}

// ReadText implements fs.FileSystem.
func (p *Provider) ReadText(ctx context.Context, t fs.Target) (fs.ReadOutcome, error) {
	return p.local.ReadText(ctx, t)
}

// StreamText implements fs.FileSystem.
func (p *Provider) StreamText(ctx context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	return p.local.StreamText(ctx, t)
}

// StreamTextBytes implements fs.TextByteStreamer.
func (p *Provider) StreamTextBytes(ctx context.Context, t fs.Target) (iter.Seq2[[]byte, error], error) {
	return p.local.StreamTextBytes(ctx, t)
}

// ReadBytes implements fs.FileSystem.
func (p *Provider) ReadBytes(ctx context.Context, t fs.Target, maxBytes int64) ([]byte, error) {
	return p.local.ReadBytes(ctx, t, maxBytes)
}

// ListDir implements fs.FileSystem.
func (p *Provider) ListDir(ctx context.Context, t fs.Target) ([]fs.DirEntry, error) {
	return p.local.ListDir(ctx, t)
}

// Glob implements fs.Searcher (fs-local's search; searches only read).
func (p *Provider) Glob(ctx context.Context, root fs.Target, q fs.GlobQuery) (fs.GlobResult, error) {
	return p.local.Glob(ctx, root, q)
}

// Grep implements fs.Searcher.
func (p *Provider) Grep(ctx context.Context, root fs.Target, q fs.GrepQuery, emit func(fs.LineMatch) error) (fs.GrepResult, error) {
	return p.local.Grep(ctx, root, q, emit)
}

// TextCharset is fs-local's: the charset a read decodes t from ("" for UTF-8).
func (p *Provider) TextCharset(ctx context.Context, t fs.Target) string {
	return p.local.TextCharset(ctx, t)
}
