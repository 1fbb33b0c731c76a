package hostfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Beneath confines the directory operations of one mutation beneath a root
// directory: the extension point of a confining provider (fs-sandbox) that has
// decided a target may be written and needs the write to happen exactly there.
//
// The mutation keeps every mechanic of the unconfined one (per-target lock, version guard,
// diff basis, staging directory naming and registry, fsync), but creates the
// missing parents, the staging directory and the temp file, and publishes and
// cleans up, relative to directory descriptors reached from Root without
// following any symlink (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|
// RESOLVE_NO_MAGICLINKS on Linux, an O_NOFOLLOW walk elsewhere or where
// openat2 is unavailable). A target key is canonical (symlink-free) when it is
// resolved, so a symlink met on the way was swapped in after the caller's
// check: the mutation is refused with Deny, never followed. Reads (the probe,
// the diff basis, the content of an edit) are not confined.
//
// Right before publication the held parent is checked again: walking up
// through ".." it must meet Root's identity (a directory another writer moved
// out of Root is refused) and no Forbidden directory, and Holding must accept
// every directory on the way. Only the window between that check and the
// rename stays open; bind mounts inside Root are not seen. Adding vets each
// entry the mutation adds on the directory it adds it to, and may hold a lock
// until the entry exists.
type Beneath struct {
	// Root is an absolute, clean directory path without symlinks (a canonical
	// writable root as the target key spells it). The target key must be Root
	// or lie beneath it.
	Root string
	// Deny builds the error of a refusal from its cause, which wraps
	// ErrEscape. Nil returns the cause itself.
	Deny func(cause error) error
	// Forbidden, when set, returns directories (as they are now) that the
	// publication must not land in or beneath; it is called right before
	// publication, and a held parent that is, or lies beneath, one of them
	// (a directory renamed onto or exchanged with it after the check) is
	// refused with a cause wrapping ErrForbidden and ErrEscape.
	Forbidden func() []os.FileInfo
	// Adding, when set, is asked before the mutation adds an entry to a
	// directory beneath Root (each missing parent directory it creates, in
	// order, and the target it publishes, new or replaced), with the held
	// directory and the entry's name. An error refuses the mutation before the
	// entry is made (Deny gets a cause wrapping it and ErrEscape); a non-nil
	// release is called right after the entry was made, or failed to be, so
	// the caller may hold a lock from its check to the addition.
	Adding func(dir Dir, name string) (release func(), err error)
	// Holding, when set, is asked right before publication for each directory
	// from the held parent up to Root included, as they are then, with the
	// directory's current parent; an error refuses the publication as
	// Adding's does.
	Holding func(dir, parent Dir) error
}

// ErrForbidden is wrapped by the cause of a refusal of a publication into a
// directory Beneath.Forbidden names.
var ErrForbidden = errors.New("fs-local: the confined directory is a forbidden one")

// ErrEscape is wrapped by the cause of every refusal of a confined mutation:
// a target key not beneath Root, a missing or symlinked Root, or a symlink met
// beneath Root.
var ErrEscape = errors.New("fs-local: path leaves the confining directory")

// WriteTextBeneath is WriteText with its directory operations confined beneath
// b (see Beneath). A refusal is b.Deny(cause); nothing is created beneath a
// component that fails the confinement.
func (p *Provider) WriteTextBeneath(ctx context.Context, t fs.Target, content string, intent *fs.WriteIntent, b Beneath) (fs.WriteOutcome, error) {
	return p.writeText(ctx, t, content, intent, &b)
}

// EditTextBeneath is EditText with its publication confined beneath b (see
// Beneath).
func (p *Provider) EditTextBeneath(ctx context.Context, t fs.Target, req fs.EditRequest, guard *fs.EditGuard, b Beneath) (fs.EditOutcome, error) {
	return p.editText(ctx, t, req, guard, &b)
}

// check refuses, before any I/O, a Root that is not absolute and clean and a
// key that is not clean or not lexically beneath Root. A nil b confines
// nothing.
func (b *Beneath) check(t fs.Target) error {
	if b == nil {
		return nil
	}
	key := string(t.Key)
	if !filepath.IsAbs(b.Root) || filepath.Clean(b.Root) != b.Root || filepath.Clean(key) != key {
		return b.refuse(escapeError("confine", key, nil))
	}
	if _, ok := relBeneath(b.Root, key); !ok {
		return b.refuse(escapeError("confine", key, nil))
	}
	return nil
}

// refuse turns the cause of a refusal into the caller's error.
func (b *Beneath) refuse(cause error) error {
	if b.Deny == nil {
		return cause
	}
	return b.Deny(cause)
}

// relBeneath returns path relative to root ("." for root itself) when path is
// root or lies lexically beneath it; both are absolute and clean.
func relBeneath(root, path string) (string, bool) {
	if path == root {
		return ".", true
	}
	return beneath.Rel(root, path)
}

// escapeError is the cause of a refusal: op on path met err (nil when the
// path was refused before any system call).
func escapeError(op, path string, err error) error {
	if err == nil {
		return fmt.Errorf("%w: %s %s", ErrEscape, op, path)
	}
	return fmt.Errorf("%w: %s %s: %w", ErrEscape, op, path, err)
}
