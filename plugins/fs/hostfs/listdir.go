package hostfs

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// ListDir implements fs.FileSystem: the direct children of a directory sorted
// with compareNames. Each child is resolved against the parent's key (its
// DisplayPath is the parent's DisplayPath joined with the name) and probed
// following symlinks; a child that cannot be probed (a broken symlink) is
// TypeOther without version or size. File contents are never opened.
func (p *Provider) ListDir(ctx context.Context, t fs.Target) ([]fs.DirEntry, error) {
	if err := checkAbort(ctx, fs.VerbList); err != nil {
		return nil, err
	}
	info, ok, err := probe(string(t.Key))
	if err != nil {
		return nil, listError(t.DisplayPath, err)
	}
	if !ok {
		return nil, fs.ListNotFound(t.DisplayPath, nil)
	}
	if info.Type != fs.TypeDirectory {
		return nil, fs.ListNotDirectory(t.DisplayPath)
	}
	names, err := readNames(ctx, string(t.Key), t.DisplayPath)
	if err != nil {
		return nil, listError(t.DisplayPath, err)
	}
	if err := checkAbort(ctx, fs.VerbList); err != nil {
		return nil, err
	}
	slices.SortFunc(names, compareNames)
	out := make([]fs.DirEntry, 0, len(names))
	for _, name := range names {
		if err := checkAbort(ctx, fs.VerbList); err != nil {
			return nil, err
		}
		display := filepath.Join(t.DisplayPath, name)
		child, err := resolveLocal(string(t.Key), name)
		if err != nil {
			return nil, listError(display, err)
		}
		child.DisplayPath = display
		ci, ok, err := probe(string(child.Key))
		if err != nil {
			return nil, listError(display, err)
		}
		e := fs.DirEntry{Name: name, Type: fs.TypeOther, Target: child}
		if ok {
			e.Type, e.Version = ci.Type, ci.Version
			if ci.Type == fs.TypeFile {
				e.Size, e.HasSize = ci.Size, true
			}
		}
		out = append(out, e)
		if err := checkAbort(ctx, fs.VerbList); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readNames reads the entry names of dir (beneath the root ctx confines reads
// to, if any). The open never blocks and accepts
// only a directory, so a FIFO or file swapped in after the probe is
// FS_NOT_DIRECTORY (not a hang, not "not found").
func readNames(ctx context.Context, dir, display string) ([]string, error) {
	f, err := openKey(ctx, dir, unix.O_DIRECTORY|unix.O_NONBLOCK)
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) {
			if info, ok, perr := probe(dir); perr == nil && ok && info.Type != fs.TypeDirectory {
				return nil, fs.ListNotDirectory(display)
			}
		}
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// listError maps a listing failure: an *fs.Error passes through;
// ENOENT/ENOTDIR => FS_NOT_FOUND; EACCES/EPERM => FS_PERMISSION_DENIED;
// anything else => FS_IO_ERROR with the OS message. The OS error is the cause.
func listError(display string, err error) error {
	var fe *fs.Error
	switch {
	case errors.As(err, &fe):
		return err
	case isAbsentErr(err):
		return fs.ListNotFound(display, err)
	case isPermissionErr(err):
		return fs.ListPermissionDenied(display, err)
	}
	return fs.ListIOError(display, err)
}
