package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// ReadBeneath confines the opens of one read, listing or search beneath a
// root directory: the read-side extension point of a confining provider
// (fs-sandbox) that has decided a target lies beneath a readable root and
// needs the bytes to come from exactly there (docs/sandbox.md "Roots").
//
// The file or directory is opened relative to a descriptor of Root reached
// without following any symlink, through no symlink and no ".." beneath it
// (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS on
// Linux, an O_NOFOLLOW walk elsewhere or where openat2 is unavailable). A
// target key is canonical when it is resolved, so a symlink met on the way was
// swapped in after the caller's check: the read is refused with Deny, never
// followed. A search walks its tree on descriptors opened the same way.
type ReadBeneath struct {
	// Root is an absolute, clean directory path without symlinks; the key
	// read must be Root or lie beneath it.
	Root string
	// Deny builds the error of a refusal from its cause, which wraps
	// ErrEscape. Nil returns the cause itself.
	Deny func(cause error) error
}

type readBeneathKey struct{}

// WithReadBeneath returns ctx confining the reads it is passed to beneath b.
func WithReadBeneath(ctx context.Context, b ReadBeneath) context.Context {
	return context.WithValue(ctx, readBeneathKey{}, &b)
}

// readRoot is the root of the read confinement on ctx (WithReadBeneath), or "" (none): what a
// search opens beneath, and above which no .editorconfig is looked at.
func readRoot(ctx context.Context) string {
	if b := readBeneathFrom(ctx); b != nil {
		return b.Root
	}
	return ""
}

// readBeneathFrom returns the confinement WithReadBeneath put on ctx, or nil.
func readBeneathFrom(ctx context.Context) *ReadBeneath {
	b, _ := ctx.Value(readBeneathKey{}).(*ReadBeneath)
	return b
}

func (b *ReadBeneath) refuse(cause error) error {
	if b.Deny == nil {
		return cause
	}
	return b.Deny(cause)
}

// openKey opens key with flags (O_RDONLY and O_CLOEXEC are added): beneath b
// when ctx confines reads (a refusal is b.Deny's error), else by path. With
// O_NONBLOCK a regular file probed earlier and meanwhile replaced by a FIFO is
// not waited on (a plain open would wait for a writer forever); reads of a
// regular file are unaffected.
func openKey(ctx context.Context, key string, flags int) (*os.File, error) {
	fd, err := openKeyFD(ctx, key, flags)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), key), nil
}

// openKeyFD is openKey's descriptor.
func openKeyFD(ctx context.Context, key string, flags int) (int, error) {
	b := readBeneathFrom(ctx)
	if b == nil {
		var fd int
		err := ignoringEINTR(func() (err error) {
			fd, err = unix.Open(key, unix.O_RDONLY|unix.O_CLOEXEC|flags, 0)
			return err
		})
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: key, Err: err}
		}
		return fd, nil
	}
	fd, err := openFileBeneath(b.Root, key, unix.O_RDONLY|unix.O_CLOEXEC|flags)
	if err != nil {
		if errors.Is(err, ErrEscape) {
			return -1, b.refuse(err)
		}
		return -1, err
	}
	return fd, nil
}

// openFileBeneath opens key (absolute, clean) with flags relative to a
// descriptor of root, following no symlink anywhere on the way. A key not
// beneath root, a symlinked or missing root, a symlink or ".." met beneath it
// is a refusal wrapping ErrEscape; other failures are raw *os.PathError
// values (ENOENT stays visible to errors.Is).
func openFileBeneath(root, key string, flags int) (int, error) {
	rel, ok := relBeneath(root, key)
	if !ok || !filepath.IsAbs(root) || filepath.Clean(root) != root || filepath.Clean(key) != key {
		return -1, escapeError("confine", key, nil)
	}
	// A key reached through no link is the file beneath root (the key is clean and lexically
	// beneath it): one call opens it. Any failure takes the confined open below, whose refusals
	// and errors are the contract's.
	if rel != "." {
		if fd, ok, err := beneath.Open(unix.AT_FDCWD, key, flags, beneath.NoLinks); ok && err == nil {
			return fd, nil
		}
	}
	rootfd, err := openRoot(root)
	if err != nil {
		return -1, err
	}
	defer unix.Close(rootfd)
	if fd, ok, err := beneath.Open(rootfd, rel, flags, beneath.Confined); ok {
		switch {
		case err == nil:
			return fd, nil
		case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV):
			return -1, escapeError("open", key, err)
		}
		return -1, &os.PathError{Op: "open", Path: key, Err: err}
	}
	dir, base := filepath.Split(rel)
	dirfd, err := walkBeneath(rootfd, root, filepath.Clean("./"+dir), false, nil)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dirfd)
	if base == ".." {
		return -1, escapeError("open", key, nil)
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, base, flags|unix.O_NOFOLLOW, 0)
		return err
	})
	if err != nil {
		if isSymlinkErr(dirfd, base, err) {
			return -1, escapeError("open", key, err)
		}
		return -1, &os.PathError{Op: "open", Path: key, Err: err}
	}
	return fd, nil
}
