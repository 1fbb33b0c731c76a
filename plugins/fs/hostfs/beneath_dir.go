package hostfs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// beneathDir is the atomicDir of a confined mutation: a descriptor of the
// target's parent directory reached beneath the root without following a
// symlink, and a descriptor of the staging directory once it exists. Every
// operation names a single component relative to one of them, so nothing
// after the descriptors were opened can redirect it.
type beneathDir struct {
	b           *Beneath
	dir         string // the parent's path, for messages
	fd          int    // the parent directory
	root        fileID // the root's identity, taken when it was opened
	staging     string // staging directory name, once made
	stagingPath string // and its full path
	sfd         int    // the staging directory, once opened; -1 before
	temp        string // temp file name, once created
	tempPath    string // and its full path
	release     func() // what Adding holds for the publication, until it ran
}

// openBeneathDir creates the missing directories of dir beneath o.beneath.Root
// and returns its descriptor as an atomicDir.
func openBeneathDir(dir string, o atomicOptions) (atomicDir, error) {
	b := o.beneath
	rel, ok := relBeneath(b.Root, dir)
	if !ok {
		return nil, b.refuse(escapeError("open", dir, nil))
	}
	fd, root, err := openDirBeneath(b.Root, rel, b.Adding)
	if err != nil {
		if errors.Is(err, ErrEscape) {
			return nil, b.refuse(err)
		}
		return nil, err
	}
	return &beneathDir{b: b, dir: dir, fd: fd, root: root, sfd: -1}, nil
}

// beforePublish refuses the publication when the held parent no longer lies
// beneath the root (another writer moved it, or one of its ancestors, out
// after it was opened): the descriptor follows the directory, so without this
// the file would land wherever the directory went. It then asks Adding about
// base, holding what Adding holds until publish has run.
func (d *beneathDir) beforePublish(base, path string) error {
	var forbidden []fileID
	if d.b.Forbidden != nil {
		forbidden = fileIDs(d.b.Forbidden())
	}
	at, err := stillBeneath(d.fd, d.root, forbidden, d.b.Holding)
	switch {
	case at == placedRefused:
		return d.b.refuse(escapeError("publish", d.dir, err))
	case err != nil:
		return &os.PathError{Op: "open", Path: d.dir, Err: err}
	case at == placedOutside:
		return d.b.refuse(escapeError("publish", d.dir, nil))
	case at == placedForbidden:
		return d.b.refuse(escapeError("publish", d.dir, ErrForbidden))
	}
	if d.b.Adding == nil {
		return nil
	}
	release, err := d.b.Adding(Dir{fd: d.fd}, base)
	if err != nil {
		return d.b.refuse(escapeError("add", path, err))
	}
	d.release = release
	return nil
}

// releaseAdding releases what Adding holds for the publication, once.
func (d *beneathDir) releaseAdding() {
	if d.release != nil {
		d.release()
		d.release = nil
	}
}

func (d *beneathDir) makeStaging(name, path string) error {
	d.staging, d.stagingPath = name, path
	err := ignoringEINTR(func() error { return unix.Mkdirat(d.fd, name, uint32(stagingDirPerm)) })
	if err != nil {
		return &os.PathError{Op: "mkdir", Path: path, Err: err}
	}
	return nil
}

func (d *beneathDir) createTemp(name, path string) (*os.File, error) {
	staging := d.stagingPath
	sfd, err := openDirNoFollow(d.fd, d.staging)
	if err != nil {
		if isSymlinkErr(d.fd, d.staging, err) {
			return nil, d.b.refuse(escapeError("open", staging, err))
		}
		return nil, &os.PathError{Op: "open", Path: staging, Err: err}
	}
	d.sfd = sfd
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(sfd, &st) }); err != nil {
		return nil, &os.PathError{Op: "fstat", Path: staging, Err: err}
	}
	mode := uint32(stagingDirPerm) | uint32(st.Mode)&unix.S_ISGID // as pathDir.createTemp
	if err := ignoringEINTR(func() error { return unix.Fchmod(sfd, mode) }); err != nil {
		return nil, &os.PathError{Op: "chmod", Path: staging, Err: err}
	}
	d.temp, d.tempPath = name, path
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(sfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(newFilePerm))
		return err
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

func (d *beneathDir) publish(base, path string, noReplace bool) error {
	defer d.releaseAdding()
	temp := d.tempPath
	if noReplace {
		if err := ignoringEINTR(func() error { return unix.Linkat(d.sfd, d.temp, d.fd, base, 0) }); err != nil {
			return &os.LinkError{Op: "link", Old: temp, New: path, Err: err}
		}
		return nil
	}
	if err := ignoringEINTR(func() error { return unix.Renameat(d.sfd, d.temp, d.fd, base) }); err != nil {
		return &os.LinkError{Op: "rename", Old: temp, New: path, Err: err}
	}
	return nil
}

func (d *beneathDir) inspect(base, path string) (os.FileMode, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstatat(d.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil {
		return 0, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFREG:
		return 0, nil
	case unix.S_IFDIR:
		return os.ModeDir, nil
	case unix.S_IFLNK:
		return os.ModeSymlink, nil
	}
	return os.ModeIrregular, nil
}

func (d *beneathDir) removeStaging() error {
	if d.sfd >= 0 {
		_ = unix.Close(d.sfd)
		d.sfd = -1
	}
	if err := removeAllAt(d.fd, d.staging); err != nil {
		return &os.PathError{Op: "unlinkat", Path: d.stagingPath, Err: err}
	}
	return nil
}

func (d *beneathDir) sync() {
	_ = unix.Fsync(d.fd) // some filesystems refuse directory fsync
}

func (d *beneathDir) close() {
	d.releaseAdding()
	if d.sfd >= 0 {
		_ = unix.Close(d.sfd)
		d.sfd = -1
	}
	_ = unix.Close(d.fd)
}

// removeAllAt removes the entry name of the directory dirfd and, when it is a
// directory (never followed if it is a symlink), everything beneath it. A
// missing entry is not an error.
func removeAllAt(dirfd int, name string) error {
	err := ignoringEINTR(func() error { return unix.Unlinkat(dirfd, name, 0) })
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	if !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EPERM) {
		return err
	}
	fd, oerr := openDirNoFollow(dirfd, name)
	if oerr != nil {
		if errors.Is(oerr, unix.ENOENT) {
			return nil
		}
		return err // not a directory after all: the unlink error stands
	}
	f := os.NewFile(uintptr(fd), name)
	names, rerr := f.Readdirnames(-1)
	var first error
	for _, n := range names {
		if err := removeAllAt(fd, n); err != nil && first == nil {
			first = err
		}
	}
	_ = f.Close()
	err = ignoringEINTR(func() error { return unix.Unlinkat(dirfd, name, unix.AT_REMOVEDIR) })
	switch {
	case err == nil || errors.Is(err, unix.ENOENT):
		return nil
	case first != nil:
		return first
	case rerr != nil:
		return rerr
	}
	return err
}
