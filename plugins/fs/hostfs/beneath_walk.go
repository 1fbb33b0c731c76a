package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// openDirBeneath returns a descriptor of root/rel ("." for root itself),
// creating the missing directories of rel (mode 0777 before umask, kept even
// if a later step fails). Neither root nor any component of rel may be a
// symlink: root is reached from "/" and rel from root without following one.
// A refusal (a symlink, a missing or non-directory root, a ".." component, an
// escape reported by the kernel, a creation adding refused) wraps ErrEscape;
// other failures are raw *os.PathError values.
func openDirBeneath(root, rel string, adding func(Dir, string) (func(), error)) (int, fileID, error) {
	rootfd, err := openRoot(root)
	if err != nil {
		return -1, fileID{}, err
	}
	rootID, err := fdID(rootfd)
	if err != nil {
		_ = unix.Close(rootfd)
		return -1, fileID{}, &os.PathError{Op: "fstat", Path: root, Err: err}
	}
	if rel == "." {
		return rootfd, rootID, nil
	}
	defer unix.Close(rootfd)
	if fd, ok, err := openBeneathFast(rootfd, rel); ok {
		switch {
		case err == nil:
			return fd, rootID, nil
		case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV):
			return -1, fileID{}, escapeError("open", filepath.Join(root, rel), err)
		case !errors.Is(err, unix.ENOENT):
			return -1, fileID{}, &os.PathError{Op: "open", Path: filepath.Join(root, rel), Err: err}
		}
		// Something is missing: create it one component at a time.
	}
	fd, err := walkBeneath(rootfd, root, rel, true, adding)
	return fd, rootID, err
}

// fileID is the identity (device and inode) of a file.
type fileID struct{ dev, ino uint64 }

// fdID returns the identity of the open file fd.
func fdID(fd int) (fileID, error) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// maxBeneathDepth bounds the walk of stillBeneath (a directory deeper than
// this below the root is not expected: PATH_MAX allows about 2048 levels).
const maxBeneathDepth = 4096

// placement is where stillBeneath found a directory.
type placement int

const (
	placedBeneath   placement = iota // at or beneath the root
	placedOutside                    // not beneath the root (moved out)
	placedForbidden                  // at or beneath a forbidden directory
	placedRefused                    // refused by the holding check
)

// stillBeneath tells where the directory dirfd lies now relative to the
// directory whose identity is root: it walks up through ".." (the
// directory's current parent, wherever it was moved) until it meets root, or
// the top of the tree (a directory that is its own parent); a directory met
// on the way (dirfd itself included) that is one of forbidden is
// placedForbidden; holding (when set) is asked about each directory met, the
// root included, with its parent, and its refusal is placedRefused with that
// error. An ancestor that cannot be opened for lack of permission ends the
// walk undecided (placedBeneath): this check narrows the publication window,
// it is not the boundary.
func stillBeneath(dirfd int, root fileID, forbidden []fileID, holding func(dir, parent Dir) error) (placement, error) {
	cur := dirfd
	defer func() {
		if cur != dirfd {
			_ = unix.Close(cur)
		}
	}()
	id, err := fdID(cur)
	if err != nil {
		return placedOutside, err
	}
	for range maxBeneathDepth {
		atRoot := id == root
		if atRoot && holding == nil {
			return placedBeneath, nil
		}
		if !atRoot && slices.Contains(forbidden, id) {
			return placedForbidden, nil
		}
		parent, err := openParent(cur)
		if err != nil {
			if atRoot || errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
				return placedBeneath, nil
			}
			return placedOutside, err
		}
		if holding != nil {
			if err := holding(Dir{fd: cur}, Dir{fd: parent}); err != nil {
				_ = unix.Close(parent)
				return placedRefused, err
			}
		}
		if atRoot {
			_ = unix.Close(parent)
			return placedBeneath, nil
		}
		if cur != dirfd {
			_ = unix.Close(cur)
		}
		cur = parent
		pid, err := fdID(cur)
		if err != nil {
			return placedOutside, err
		}
		if pid == id {
			return placedOutside, nil // the top of the tree, without meeting root
		}
		id = pid
	}
	return placedOutside, nil
}

// fileIDs returns the identities of infos (those that carry one).
func fileIDs(infos []os.FileInfo) []fileID {
	var out []fileID
	for _, fi := range infos {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			out = append(out, fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)})
		}
	}
	return out
}

// openRoot opens the directory root (absolute, clean) without following a
// symlink in any component. A missing, non-directory or symlinked root is a
// refusal: there is nothing to confine to.
func openRoot(root string) (int, error) {
	fd, ok, err := openRootFast(root)
	if !ok {
		var slash int
		err = ignoringEINTR(func() (err error) {
			slash, err = unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			return err
		})
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: "/", Err: err}
		}
		if root == "/" {
			return slash, nil
		}
		fd, err = walkBeneath(slash, "/", root[1:], false, nil)
		_ = unix.Close(slash)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) && (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)) {
				return -1, escapeError("open", root, pe.Err)
			}
			return -1, err
		}
		return fd, nil
	}
	switch {
	case err == nil:
		return fd, nil
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV):
		return -1, escapeError("open", root, err)
	}
	return -1, &os.PathError{Op: "open", Path: root, Err: err}
}

// walkBeneath opens rel (relative, clean) below the directory dirfd (spelled
// dirPath) one component at a time with O_NOFOLLOW, creating a missing
// component when create is set, once adding (when set) allowed it. The
// returned descriptor is new; dirfd stays open.
func walkBeneath(dirfd int, dirPath, rel string, create bool, adding func(Dir, string) (func(), error)) (int, error) {
	cur, curPath := dirfd, dirPath
	closeCur := func() {
		if cur != dirfd {
			_ = unix.Close(cur)
		}
	}
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		switch c {
		case "", ".":
			continue
		case "..":
			closeCur()
			return -1, escapeError("open", filepath.Join(curPath, c), nil)
		}
		next := filepath.Join(curPath, c)
		fd, err := openDirNoFollow(cur, c)
		if errors.Is(err, unix.ENOENT) && create {
			merr := vetted(adding, cur, c, next, func() error {
				return ignoringEINTR(func() error { return unix.Mkdirat(cur, c, uint32(parentDirPerm)) })
			})
			if errors.Is(merr, ErrEscape) {
				closeCur()
				return -1, merr
			}
			if merr != nil && !errors.Is(merr, unix.EEXIST) {
				closeCur()
				return -1, &os.PathError{Op: "mkdir", Path: next, Err: merr}
			}
			fd, err = openDirNoFollow(cur, c)
		}
		if err != nil {
			symlink := isSymlinkErr(cur, c, err)
			closeCur()
			if symlink {
				return -1, escapeError("open", next, err)
			}
			return -1, &os.PathError{Op: "open", Path: next, Err: err}
		}
		closeCur()
		cur, curPath = fd, next
	}
	if cur == dirfd {
		// rel named dirfd itself: hand out a descriptor of its own.
		return openDirNoFollow(dirfd, ".")
	}
	return cur, nil
}

// openDirNoFollow opens the directory name below dirfd without following a
// final symlink.
func openDirNoFollow(dirfd int, name string) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		return err
	})
	return fd, err
}

// isSymlinkErr reports whether opening name below dirfd failed because it is
// a symlink (ELOOP from O_NOFOLLOW, or ENOTDIR from O_DIRECTORY on systems
// that check the type first).
func isSymlinkErr(dirfd int, name string, err error) bool {
	if errors.Is(err, unix.ELOOP) {
		return true
	}
	if !errors.Is(err, unix.ENOTDIR) {
		return false
	}
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	return uint32(st.Mode)&unix.S_IFMT == unix.S_IFLNK
}
