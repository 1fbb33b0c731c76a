package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

const (
	// writeChunkBytes bounds one write syscall so cancellation is observed
	// while a large content is written.
	writeChunkBytes = 1 << 20
	// newFilePerm is the mode a new file is created with, before the kernel
	// applies the umask or the directory's default ACL, as open(2) callers
	// (editors, git) ask for.
	newFilePerm os.FileMode = 0o666
	// stagingDirPerm is the mode of the private staging directory.
	stagingDirPerm os.FileMode = 0o700
	// parentDirPerm is the mode (before umask) of missing parent directories.
	parentDirPerm os.FileMode = 0o777
)

// atomicOptions are the parameters of writeFileAtomic.
type atomicOptions struct {
	// keep, when set, gives the staged file the metadata of the file being
	// replaced before publication (see keptMeta.apply). Otherwise it keeps
	// what creation gave it (see writeFileAtomic).
	keep *keptMeta
	// createIfAbsent publishes with a hard link, which never replaces an
	// existing entry; a collision is reported with display.
	createIfAbsent bool
	display        string
	// bom writes a UTF-8 BOM before content.
	bom bool
	// hooks replace system calls in tests; nil in production.
	hooks *atomicHooks
	// log, when set, hears about staging residue after a committed write.
	log *zap.Logger
	// registry records the staging directory for the sweep after a crash (nil: not recorded).
	registry *staging.Registry
	// beneath, when set, confines every directory operation beneath a root.
	beneath *Beneath
}

// atomicHooks let tests inject races and faults into writeFileAtomic.
type atomicHooks struct {
	stagingName  func(base string) string                  // staging directory name
	beforeParent func(dir string)                          // before the parent directory is created or opened
	chmod        func(path string, mode os.FileMode) error // the staging directory's chmod (by path)
	fchmod       func(f *os.File, mode os.FileMode) error  // the temp file's chmod to the kept bits
	inspectTemp  func(stagingDir, tempPath string)         // after write+fsync, before chmod and publication
	link         func(oldname, newname string) error       // no-replace publication
	lstat        func(path string) (os.FileInfo, error)    // inspection after a failed link
	removeAll    func(path string) error                   // staging removal
	rename       func(oldpath, newpath string) error       // replace publication
	published    func(step int)                            // after each step of a change set's publication
	// tmpfile lets a hooked write publish through an unnamed temp file, as an unhooked one
	// does where the filesystem allows (tmpfileFirst); hooked writes stage in a directory
	// otherwise, so that the hooks above see the staging path.
	tmpfile bool
	linked  func(tempPath string) // after the unnamed temp file is linked, before its rename
	linkFD  func() error          // replaces the unnamed temp file's link when it returns an error
}

// tmpfileFirst reports whether writeFileAtomic tries an unnamed temp file first: always unhooked
// (when this system has /proc/self/fd to link it through), and when a test asks for it.
func (h *atomicHooks) tmpfileFirst() bool {
	return (h == nil || h.tmpfile) && procFDLinks()
}

func (h *atomicHooks) name(base string) string {
	if h != nil && h.stagingName != nil {
		return h.stagingName(base)
	}
	return staging.Name(base)
}

func (h *atomicHooks) doChmod(p string, mode os.FileMode) error {
	if h != nil && h.chmod != nil {
		return h.chmod(p, mode)
	}
	return os.Chmod(p, mode)
}

func (h *atomicHooks) doFchmod(f *os.File, mode os.FileMode) error {
	if h != nil && h.fchmod != nil {
		return h.fchmod(f, mode)
	}
	return f.Chmod(mode)
}

func (h *atomicHooks) doLink(o, n string) error {
	if h != nil && h.link != nil {
		return h.link(o, n)
	}
	return os.Link(o, n)
}

func (h *atomicHooks) doRename(o, n string) error {
	if h != nil && h.rename != nil {
		return h.rename(o, n)
	}
	return os.Rename(o, n)
}

func (h *atomicHooks) doLstat(p string) (os.FileInfo, error) {
	if h != nil && h.lstat != nil {
		return h.lstat(p)
	}
	return os.Lstat(p)
}

func (h *atomicHooks) doRemoveAll(p string) error {
	if h != nil && h.removeAll != nil {
		return h.removeAll(p)
	}
	return os.RemoveAll(p)
}

// writeFileAtomic publishes content (preceded by a BOM when o.bom) at path so
// that path always holds either its old content or the complete new content:
//
//  1. missing parent directories are created (and kept even on failure);
//  2. a private staging directory ".<base>.<pid>.<uuid>.tmpdir" (0700, its
//     setgid bit kept) is created beside path, and in it "<base>.tmp"
//     exclusively with mode 0666, base being shortened (staging.Base) so that
//     both names fit NAME_MAX. The staging directory, made in path's
//     directory, took that directory's default ACL and (setgid) group, so
//     the kernel gives the temp file what open(O_CREAT, 0666) in path's
//     directory would: the umask, or the default ACL, and the group;
//  3. the content is written in chunks, fsynced, given the owner, group,
//     extended attributes (only those: an ACL the creation gave it goes) and
//     mode bits of the replaced file (o.keep; a new file keeps what creation
//     gave it) and closed;
//  4. it is published with a hard link (createIfAbsent: never replaces) or a
//     rename; the staging directory is removed and the parent directory
//     fsynced so the publication is durable.
//
// The staging directory is recorded in o.registry before it is created and
// forgotten once removed, so that if this process is killed in between, the
// next process to start removes it (package staging); nothing here lists a
// directory.
//
// ctx is checked before step 1, before step 2, between chunks and right before
// publication (FS_ABORTED "write aborted"); after publication nothing aborts.
// On any failure, and on a panic, the staging directory is removed; a failed
// removal (or close) becomes the double-fault FS_NOT_FOUND error. Failures of
// mkdir, of creating the staging directory (EEXIST leaves an existing
// directory untouched) and of rename are returned as raw OS errors.
//
// The directory operations go through an atomicDir: by path (pathDir), or,
// when o.beneath is set, relative to descriptors reached beneath a root
// without following any symlink (beneathDir), so that a component swapped
// for a symlink after the caller's check is refused instead of followed.
func writeFileAtomic(ctx context.Context, path, content string, o atomicOptions) (err error) {
	if err := checkAbort(ctx, fs.VerbWrite); err != nil {
		return err
	}
	dir, base := filepath.Dir(path), filepath.Base(path)
	if o.hooks != nil && o.hooks.beforeParent != nil {
		o.hooks.beforeParent(dir)
	}
	d, err := openAtomicDir(dir, o)
	if err != nil {
		return err
	}
	defer d.close()
	if err := checkAbort(ctx, fs.VerbWrite); err != nil {
		return err
	}
	if o.hooks.tmpfileFirst() {
		f, err := d.openTmpfile()
		if err == nil {
			if err = publishTmpfile(ctx, d, f, path, content, o); !errors.Is(err, errNoLink) {
				return err
			}
		} else if !tmpfileUnsupported(err) {
			return err
		}
	}
	stagingName := o.hooks.name(base)
	stagingPath := filepath.Join(dir, stagingName)
	o.registry.Begin(stagingPath)
	if err := d.makeStaging(stagingName, stagingPath); err != nil {
		o.registry.Abandon(stagingPath)
		return err
	}
	var f *os.File
	committed := false
	defer func() {
		// Runs on success, failure and panic alike.
		if f != nil {
			if cerr := f.Close(); cerr != nil && err != nil {
				err = fs.WriteCloseFailed(err, cerr)
			}
		}
		rerr := d.removeStaging()
		o.registry.End(stagingPath, rerr == nil)
		if committed {
			// The target is committed: owner-only residue cannot fail it.
			if rerr != nil && o.log != nil {
				o.log.Warn("staging directory left behind after a committed write",
					zap.String("dir", stagingPath), zap.Error(rerr))
			}
			d.sync()
			return
		}
		if rerr != nil && err != nil {
			err = fs.WriteCleanupFailed(err, rerr)
		}
	}()
	tempName := staging.Base(base) + ".tmp"
	temp := filepath.Join(stagingPath, tempName)
	f, err = d.createTemp(tempName, temp)
	if err != nil {
		f = nil
		return err
	}
	if err := writeContent(ctx, f, content, o.bom); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if o.hooks != nil && o.hooks.inspectTemp != nil {
		o.hooks.inspectTemp(stagingPath, temp)
	}
	if o.keep != nil {
		if err := o.keep.apply(f, o.display, o.hooks); err != nil {
			return err
		}
	}
	cerr := f.Close()
	f = nil
	if cerr != nil {
		return cerr
	}
	if err := checkAbort(ctx, fs.VerbWrite); err != nil {
		return err
	}
	if err := d.beforePublish(base, path); err != nil {
		return err
	}
	if o.createIfAbsent {
		if err := d.publish(base, path, true); err != nil {
			return guardedCreateFailure(err, o.display, func() (os.FileMode, error) { return d.inspect(base, path) })
		}
	} else if err := d.publish(base, path, false); err != nil {
		return err
	}
	committed = true
	return nil
}

// atomicDir is the parent directory of one atomic publication and the
// directory operations writeFileAtomic runs in it. Each operation gets the
// single-component name (relative to the parent, or to the staging directory
// for the temp file) and the full path of the same entry; errors are raw OS
// errors.
type atomicDir interface {
	// makeStaging creates the private staging directory name (0700).
	makeStaging(name, path string) error
	// createTemp makes the staging directory owner-only (keeping its setgid
	// bit) and creates the temp file name in it exclusively (newFilePerm).
	createTemp(name, path string) (*os.File, error)
	// beforePublish is the last check before base is published (a confined
	// directory verifies it still lies beneath its root and may be added to).
	beforePublish(base, path string) error
	// publish moves the temp file to base: a hard link that never replaces
	// (noReplace) or a rename.
	publish(base, path string, noReplace bool) error
	// inspect reports the type of the entry base without following it.
	inspect(base, path string) (os.FileMode, error)
	// removeStaging removes the staging directory and whatever it holds.
	removeStaging() error
	// sync makes a publication durable (fsyncs the parent directory).
	sync()
	// close releases what the directory holds.
	close()

	// openTmpfile creates an unnamed, linkable file in the directory (O_TMPFILE, newFilePerm):
	// the kernel gives it the umask or the default ACL, and the group, as to a file created
	// there. A filesystem without O_TMPFILE fails it (tmpfileUnsupported).
	openTmpfile() (*os.File, error)
	// linkTmpfile gives the unnamed file f the entry name (never replacing one; path is its full
	// path); renameIn renames the entry name to base (noReplace: never over an entry there;
	// where the filesystem has no RENAME_NOREPLACE, a hard link, moved false, the name staying);
	// unlinkIn removes the entry name.
	linkTmpfile(f *os.File, name, path string) error
	renameIn(name, base, path string, noReplace bool) (moved bool, err error)
	unlinkIn(name, path string) error
}

// openAtomicDir creates the missing directories of dir and returns it as an
// atomicDir: confined beneath o.beneath.Root when set, by path otherwise. A dir
// it created is flock(2)ed until close when the lock is free at once, as the
// lock paths flock an existing parent: the caller holds the lock of the
// ancestor that existed, and a writer that finds the new directory (and so
// locks it, not the ancestor) waits for the publication. It never waits for
// that lock (a directory swapped in could be one the caller holds itself): a
// writer that got it first is answered by the creation's no-replace
// publication instead, which fails rather than replace its file.
func openAtomicDir(dir string, o atomicOptions) (atomicDir, error) {
	made := !isDir(dir)
	d, err := openParentDir(dir, o)
	if err != nil || !made {
		return d, err
	}
	return &madeDir{atomicDir: d, unlock: tryFlockDir(dir)}, nil
}

// tryFlockDir takes dir's flock(2) if it is free now; the returned func releases it (a no-op when
// it was not taken).
func tryFlockDir(dir string) (unlock func()) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return func() {}
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		_ = unix.Close(fd)
		return func() {}
	}
	return func() { _ = unix.Close(fd) }
}

// madeDir is an atomicDir that openAtomicDir created, locked until close.
type madeDir struct {
	atomicDir
	unlock func()
}

func (d *madeDir) close() {
	d.atomicDir.close()
	d.unlock()
}

func openParentDir(dir string, o atomicOptions) (atomicDir, error) {
	if o.beneath != nil {
		return openBeneathDir(dir, o)
	}
	if err := os.MkdirAll(dir, parentDirPerm); err != nil {
		return nil, err
	}
	return &pathDir{dir: dir, hooks: o.hooks}, nil
}

// writeContent writes the optional BOM and content in bounded chunks,
// checking ctx before each chunk.
func writeContent(ctx context.Context, f *os.File, content string, bom bool) error {
	if bom {
		if _, err := f.WriteString(textedit.BOM); err != nil {
			return err
		}
	}
	for len(content) > 0 {
		if err := checkAbort(ctx, fs.VerbWrite); err != nil {
			return err
		}
		n := min(len(content), writeChunkBytes)
		if _, err := f.WriteString(content[:n]); err != nil {
			return err
		}
		content = content[n:]
	}
	return nil
}

// guardedCreateFailure classifies a failed no-replace publication by looking at
// what now occupies the target (lstat, without following a symlink): a
// regular file is FS_NOT_OBSERVED, anything else (directory, symlink, dangling
// or not) is FS_NOT_REGULAR_FILE; with no entry, EEXIST (a collision that
// vanished) is still FS_NOT_OBSERVED and any other link error is FS_IO_ERROR
// (no hard-link support). An inspection failure other than ENOENT/ENOTDIR is
// FS_IO_ERROR.
func guardedCreateFailure(linkErr error, display string, lstat func() (os.FileMode, error)) error {
	mode, err := lstat()
	if err != nil && !isAbsentErr(err) {
		return fs.WriteIOError(display, err)
	}
	if err == nil {
		if !mode.IsRegular() {
			return fs.WriteNotRegular(display, linkErr)
		}
		return fs.OverwriteNotObserved(display, linkErr)
	}
	if errors.Is(linkErr, unix.EEXIST) {
		return fs.OverwriteNotObserved(display, linkErr)
	}
	return fs.WriteIOError(display, linkErr)
}

// openDir opens a directory without ever blocking (a FIFO swapped in for it
// fails ENOTDIR).
func openDir(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
}

// syncDir fsyncs a directory so a rename or link in it survives a crash.
// Failures are ignored (some filesystems refuse directory fsync).
func syncDir(dir string) {
	d, err := openDir(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
