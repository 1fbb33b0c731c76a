package hostfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

// publishTmpfile is writeFileAtomic through the unnamed file f that d made (openTmpfile), with
// no staging directory (docs/fs.md "Crash residue"):
//
//  1. the content is written in chunks and given the replaced file's owner, group, extended
//     attributes and mode bits (o.keep) while f has no name: no one can open it, and a process
//     killed meanwhile leaves nothing behind;
//  2. f is linked beside path under staging.FileName (recorded in o.registry until it is
//     renamed) and then fsynced: its content and its link count are durable before anything
//     names it at path;
//  3. it is renamed over path, or, for a createIfAbsent, renamed without replacing an entry
//     (RENAME_NOREPLACE; where the filesystem refuses that flag, a hard link to path and the
//     removal of the temp name);
//  4. the directory is fsynced so the publication is durable.
//
// A process killed between 2 and 3 leaves the temp file, which the next start removes. ctx is
// checked between chunks and right before publication, and d.beforePublish runs right before
// the publishing rename or link, as in the staging path. On a failure the temp name is removed;
// a failed removal (or close) becomes the double-fault FS_NOT_FOUND error.
func publishTmpfile(ctx context.Context, d atomicDir, f *os.File, path, content string, o atomicOptions) (err error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	var linked, linkedPath string // the temp entry, until it is renamed or removed
	committed := false
	defer func() {
		// Runs on success, failure and panic alike.
		if f != nil {
			if cerr := f.Close(); cerr != nil && err != nil {
				err = fs.WriteCloseFailed(err, cerr)
			}
		}
		if linked != "" {
			rerr := d.unlinkIn(linked, linkedPath)
			o.registry.End(linkedPath, rerr == nil)
			if rerr != nil && err != nil {
				err = fs.WriteCleanupFailed(err, rerr)
			}
			if rerr != nil && committed && o.log != nil {
				o.log.Warn("temp file left behind after a committed write", zap.String("file", linkedPath), zap.Error(rerr))
			}
		}
		if committed {
			d.sync()
		}
	}()
	if err := writeContent(ctx, f, content, o.bom); err != nil {
		return err
	}
	if o.keep != nil {
		if err := o.keep.apply(f, o.display, o.hooks); err != nil {
			return err
		}
	}
	name := staging.FileName(base)
	temp := filepath.Join(dir, name)
	o.registry.Begin(temp)
	if err := o.hooks.linkTmpfile(d, f, name, temp); err != nil {
		o.registry.Abandon(temp)
		if linkUnsupported(err) {
			return fmt.Errorf("%w: %w", errNoLink, err)
		}
		return err
	}
	linked, linkedPath = name, temp
	if err := f.Sync(); err != nil {
		return err
	}
	if o.hooks != nil && o.hooks.inspectTemp != nil {
		o.hooks.inspectTemp("", temp)
	}
	cerr := f.Close()
	f = nil
	if cerr != nil {
		return cerr
	}
	if o.hooks != nil && o.hooks.linked != nil {
		o.hooks.linked(temp)
	}
	if err := checkAbort(ctx, fs.VerbWrite); err != nil {
		return err
	}
	if err := d.beforePublish(base, path); err != nil {
		return err
	}
	if o.createIfAbsent {
		moved, err := d.renameIn(name, base, path, true)
		if err != nil {
			return guardedCreateFailure(err, o.display, func() (os.FileMode, error) { return d.inspect(base, path) })
		}
		committed = true
		if moved {
			linked = ""
			o.registry.End(temp, true)
		}
		return nil
	}
	if _, err := d.renameIn(name, base, path, false); err != nil {
		return err
	}
	linked = ""
	o.registry.End(temp, true)
	committed = true
	return nil
}

// errNoLink is publishTmpfile's failure to link the unnamed file for a reason other than the
// filesystem's state (no /proc here after all, a link refused across mounts or by a policy):
// writeFileAtomic then stages in a directory, the unnamed file gone with nothing published.
var errNoLink = errors.New("cannot link an unnamed temp file")

// linkUnsupported reports whether the unnamed file's link failed in a way a staging directory
// avoids: not for lack of space, quota or write access, which the staging directory meets too.
func linkUnsupported(err error) bool {
	for _, e := range []error{unix.ENOSPC, unix.EDQUOT, unix.EROFS, unix.EIO, unix.EMLINK, unix.EACCES, unix.ENAMETOOLONG} {
		if errors.Is(err, e) {
			return false
		}
	}
	return true
}

// linkTmpfile is d.linkTmpfile, or the test hook's failure.
func (h *atomicHooks) linkTmpfile(d atomicDir, f *os.File, name, temp string) error {
	if h != nil && h.linkFD != nil {
		if err := h.linkFD(); err != nil {
			return err
		}
	}
	return d.linkTmpfile(f, name, temp)
}

// tmpfileUnsupported reports whether openTmpfile failed because the filesystem (or kernel) has no
// O_TMPFILE: the write then stages in a directory.
func tmpfileUnsupported(err error) bool {
	return errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL)
}

// fdPath is the /proc path through which linkat names the unnamed file f.
func fdPath(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }

// linkFD links the unnamed file f at name relative to dirfd (never replacing an entry), through
// its /proc path (linkat with AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH).
func linkFD(f *os.File, dirfd int, name, path string) error {
	old := fdPath(f)
	err := ignoringEINTR(func() error { return unix.Linkat(unix.AT_FDCWD, old, dirfd, name, unix.AT_SYMLINK_FOLLOW) })
	if err != nil {
		return &os.LinkError{Op: "link", Old: old, New: path, Err: err}
	}
	return nil
}

func (d *pathDir) openTmpfile() (*os.File, error) {
	return openTmpfileAt(unix.AT_FDCWD, d.dir, filepath.Join(d.dir, "(unnamed)"))
}

func (d *pathDir) linkTmpfile(f *os.File, _, path string) error {
	return linkFD(f, unix.AT_FDCWD, path, path)
}

func (d *pathDir) renameIn(name, _, path string, noReplace bool) (bool, error) {
	temp := filepath.Join(d.dir, name)
	if !noReplace {
		return true, d.hooks.doRename(temp, path)
	}
	if d.hooks == nil || d.hooks.link == nil {
		err := renameNoReplace(unix.AT_FDCWD, temp, unix.AT_FDCWD, path)
		if !noReplaceUnsupported(err) {
			return true, wrapRename(err, temp, path)
		}
	}
	return false, d.hooks.doLink(temp, path)
}

func (d *pathDir) unlinkIn(_, path string) error { return d.hooks.doRemoveAll(path) }

func (d *beneathDir) openTmpfile() (*os.File, error) {
	return openTmpfileAt(d.fd, ".", filepath.Join(d.dir, "(unnamed)"))
}

func (d *beneathDir) linkTmpfile(f *os.File, name, path string) error {
	return linkFD(f, d.fd, name, path)
}

func (d *beneathDir) renameIn(name, base, path string, noReplace bool) (bool, error) {
	defer d.releaseAdding()
	temp := filepath.Join(d.dir, name)
	if !noReplace {
		return true, wrapRename(ignoringEINTR(func() error { return unix.Renameat(d.fd, name, d.fd, base) }), temp, path)
	}
	err := renameNoReplace(d.fd, name, d.fd, base)
	if !noReplaceUnsupported(err) {
		return true, wrapRename(err, temp, path)
	}
	if err := ignoringEINTR(func() error { return unix.Linkat(d.fd, name, d.fd, base, 0) }); err != nil {
		return false, &os.LinkError{Op: "link", Old: temp, New: path, Err: err}
	}
	return false, nil
}

// wrapRename is err (nil stays nil) as the *os.LinkError of renaming temp to path.
func wrapRename(err error, temp, path string) error {
	if err == nil {
		return nil
	}
	return &os.LinkError{Op: "rename", Old: temp, New: path, Err: err}
}

// noReplaceUnsupported reports whether a rename with RENAME_NOREPLACE failed because the
// filesystem (or kernel) has no such flag: the creation then links the temp file at its path.
func noReplaceUnsupported(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP)
}

func (d *beneathDir) unlinkIn(name, path string) error {
	if err := ignoringEINTR(func() error { return unix.Unlinkat(d.fd, name, 0) }); err != nil && !errors.Is(err, unix.ENOENT) {
		return &os.PathError{Op: "unlinkat", Path: path, Err: err}
	}
	return nil
}
