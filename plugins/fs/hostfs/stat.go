package hostfs

import (
	"context"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Stat implements fs.FileSystem: metadata of the key following symlinks, or
// (nil, nil) when absent. Other failures are coded (fs.FromOS).
func (p *Provider) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	if err := checkAbort(ctx, fs.VerbStat); err != nil {
		return nil, err
	}
	info, ok, err := probe(string(t.Key))
	if err != nil {
		return nil, fs.FromOS(fs.VerbStat, t.DisplayPath, err)
	}
	if err := checkAbort(ctx, fs.VerbStat); err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	return &fs.Info{Version: info.Version, Type: info.Type, Size: info.Size, HasSize: true}, nil
}

// Lstat implements fs.FileSystem: path is joined lexically to the base
// (opts.Cwd, else the configured cwd) and probed without following its final
// component or resolving any ancestor.
func (p *Provider) Lstat(ctx context.Context, path string, opts fs.LstatOptions) (*fs.PathInfo, error) {
	if err := checkAbort(ctx, fs.VerbLstat); err != nil {
		return nil, err
	}
	if texts.IsBlank(path) {
		return nil, fs.BlankPath()
	}
	base := p.base(opts.Cwd)
	if hasNUL(base, path) {
		return nil, nulPath(base, path)
	}
	display := displayPathOf(base, path)
	probed := display
	if fs.NamesDirectory(path) && probed != "/" {
		probed += "/" // lstat(2) follows a final symlink then, and fails ENOTDIR on a non-directory
	}
	info, ok, err := probeNoFollow(probed)
	if err != nil {
		return nil, fs.FromOS(fs.VerbLstat, display, err)
	}
	if err := checkAbort(ctx, fs.VerbLstat); err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	return &fs.PathInfo{Version: info.Version, Type: info.Type, Size: info.Size, HasSize: true}, nil
}
