package fs

import (
	"context"
	"strconv"
)

// ChangeKind is what one Change of a change set does.
type ChangeKind string

// The change kinds.
const (
	// ChangeWrite creates or replaces Target with Content, under Intent (as WriteText).
	ChangeWrite ChangeKind = "write"
	// ChangeUpdate rewrites the existing Target with Update, under Guard (as EditText), and
	// moves it to MoveTo when set (the destination under MoveIntent).
	ChangeUpdate ChangeKind = "update"
	// ChangeDelete removes the existing regular file Target, under Guard.
	ChangeDelete ChangeKind = "delete"
)

// OperationDelete is the Operation of a removed file (ChangeOutcome).
const OperationDelete Operation = "delete"

// Change is one file of a change set (ChangeSetApplier).
type Change struct {
	Kind   ChangeKind
	Target Target
	// Guard (update, delete): the version the caller observed; nil = unconditional.
	Guard *EditGuard
	// Intent (write): as WriteText's intent; nil = unconditional.
	Intent *WriteIntent
	// Content (write): the new text.
	Content string
	// Update (update) maps the file's text after its BOM, byte for byte (line breaks as on
	// disk; decoded from its charset, docs/encodings.md), to the new text; it runs under the
	// set's locks. A file that had a BOM keeps it.
	// An error it returns fails the whole set unchanged.
	Update func(text string) (string, error)
	// MoveTo (update): the destination, or nil. The source is removed.
	MoveTo *Target
	// MoveIntent (update with MoveTo): the destination's precondition, as a write intent.
	MoveIntent *WriteIntent
}

// ChangeOutcome is the result of one Change: the file's path after it (the destination of a
// move), the operation, its version afterwards ("" for a delete) and the LF-normalized texts
// before and after (nil when absent or beyond the provider's diff basis).
type ChangeOutcome struct {
	Target    Target
	Operation Operation
	Version   Version
	Before    *string
	After     *string
}

// ChangeSetApplier is an optional FileSystem capability: all-or-nothing publication of several
// files. Every target is checked (confinement, guards, intents, regular files, sizes) and every
// new content staged before the first file changes; a failure before publication changes
// nothing. A provider that journals the set (the host providers) finishes a publication that a
// crash interrupted when it next starts (docs/apply_patch.md "All or nothing"). Outcomes come in
// the order of changes. A confining provider confines every change as it confines WriteText.
type ChangeSetApplier interface {
	ApplyChanges(ctx context.Context, changes []Change) ([]ChangeOutcome, error)
}

// VerbPatch names a change set in its failures ("cannot patch ...", "patch aborted").
const VerbPatch = "patch"

// UpdateNotFound is FS_NOT_FOUND `cannot update "<p>": file not found`.
func UpdateNotFound(p string) *Error {
	return NewError(CodeNotFound, "cannot update "+q(p)+": file not found", nil)
}

// DeleteNotFound is FS_NOT_FOUND `cannot delete "<p>": file not found`.
func DeleteNotFound(p string) *Error {
	return NewError(CodeNotFound, "cannot delete "+q(p)+": file not found", nil)
}

// DeleteNotRegular is FS_NOT_REGULAR_FILE `cannot delete "<p>": not a regular file`.
func DeleteNotRegular(p string) *Error {
	return NewError(CodeNotRegularFile, "cannot delete "+q(p)+": not a regular file", nil)
}

// DeleteChanged is FS_STALE_VERSION `cannot delete "<p>": file changed since it was read`.
func DeleteChanged(p string) *Error {
	return NewError(CodeStaleVersion, "cannot delete "+q(p)+": file changed since it was read", nil)
}

// PatchTooLarge is FS_TOO_LARGE `cannot patch "<p>": with it the patch holds <size> bytes of files, over
// the <maxBytes>-byte limit of one patch; split the patch` (p: the file that crossed the limit).
func PatchTooLarge(p string, size, maxBytes int64) *Error {
	return NewError(CodeTooLarge, "cannot patch "+q(p)+": with it the patch holds "+strconv.FormatInt(size, 10)+
		" bytes of files, over the "+strconv.FormatInt(maxBytes, 10)+"-byte limit of one patch; split the patch", nil)
}

// PatchTwice is FS_NOT_FOUND `cannot patch "<p>": the patch changes it more than once`.
func PatchTwice(p string) *Error {
	return NewError(CodeNotFound, "cannot patch "+q(p)+": the patch changes it more than once", nil)
}
