package hostfs

import "golang.org/x/sys/unix"

// Dir is a directory that a confined mutation holds open (see Beneath.Adding
// and Beneath.Holding). Its lookups name one entry relative to the
// descriptor, so they see the directory the mutation writes in, wherever its
// path leads now.
type Dir struct{ fd int }

// Has reports whether the directory has an entry name (not followed if it is
// a symlink).
func (d Dir) Has(name string) bool {
	var st unix.Stat_t
	return ignoringEINTR(func() error { return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }) == nil
}

// Names reports whether the entry name of the directory, followed if it is a
// symlink, is the directory sub (the same device and inode).
func (d Dir) Names(name string, sub Dir) bool {
	var st unix.Stat_t
	if ignoringEINTR(func() error { return unix.Fstatat(d.fd, name, &st, 0) }) != nil {
		return false
	}
	id, err := fdID(sub.fd)
	return err == nil && id == fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
}

// vetted runs add, which adds the entry name (spelled path) to the directory
// dirfd, once adding (when set) allowed it, and releases what adding holds
// right after. A refusal is returned wrapped in ErrEscape; add's own failure
// is returned unchanged.
func vetted(adding func(Dir, string) (func(), error), dirfd int, name, path string, add func() error) error {
	if adding == nil {
		return add()
	}
	release, err := adding(Dir{fd: dirfd}, name)
	if err != nil {
		return escapeError("add", path, err)
	}
	if release != nil {
		defer release()
	}
	return add()
}
