package fs

import (
	"errors"
	"strconv"
)

// The verbs of Aborted.
const (
	VerbResolve = "resolve"
	VerbStat    = "stat"
	VerbLstat   = "lstat"
	VerbRead    = "read"
	VerbList    = "list"
	VerbWrite   = "write"
	VerbEdit    = "edit"
)

func q(p string) string { return `"` + p + `"` }

// causeMessage is the text of a cause inside a message: OSReason (never a path).
func causeMessage(err error) string { return OSReason(err) }

// BlankPath is FS_NOT_FOUND "file_path must be a non-empty string".
func BlankPath() *Error {
	return NewError(CodeNotFound, "file_path must be a non-empty string", nil)
}

// ParentNotDirectory is FS_NOT_FOUND
// `cannot resolve "<p>": a parent path segment is not a directory`.
func ParentNotDirectory(p string, cause error) *Error {
	return NewError(CodeNotFound, "cannot resolve "+q(p)+": a parent path segment is not a directory", cause)
}

// ReadNotFound is FS_NOT_FOUND `cannot read "<p>": not found`.
func ReadNotFound(p string, cause error) *Error {
	return NewError(CodeNotFound, "cannot read "+q(p)+": not found", cause)
}

// ListNotFound is FS_NOT_FOUND `cannot list "<p>": not found`.
func ListNotFound(p string, cause error) *Error {
	return NewError(CodeNotFound, "cannot list "+q(p)+": not found", cause)
}

// OffsetOutOfRange is FS_NOT_FOUND
// `offset <offset> is out of range for "<p>" (<total> lines)`.
func OffsetOutOfRange(offset int, p string, total int) *Error {
	return NewError(CodeNotFound, "offset "+strconv.Itoa(offset)+" is out of range for "+q(p)+
		" ("+strconv.Itoa(total)+" lines)", nil)
}

// EditNotFound is FS_NOT_FOUND `cannot edit "<p>": not found` (policy: the
// owner's last observation is absent).
func EditNotFound(p string) *Error {
	return NewError(CodeNotFound, "cannot edit "+q(p)+": not found", nil)
}

// WriteCleanupFailed is the double fault FS_NOT_FOUND
// `write failed (<original>) and temp cleanup failed (<cleanup>)`, each an
// OSReason; its cause joins both errors with the original first.
func WriteCleanupFailed(original, cleanup error) *Error {
	return NewError(CodeNotFound, "write failed ("+causeMessage(original)+") and temp cleanup failed ("+
		causeMessage(cleanup)+")", joinCauses(original, cleanup))
}

// WriteCloseFailed is the double fault FS_NOT_FOUND
// `write failed (<original>) and temp close failed (<close>)`.
func WriteCloseFailed(original, closeErr error) *Error {
	return NewError(CodeNotFound, "write failed ("+causeMessage(original)+") and temp close failed ("+
		causeMessage(closeErr)+")", joinCauses(original, closeErr))
}

// ListNotDirectory is FS_NOT_DIRECTORY `cannot list "<p>": not a directory`.
func ListNotDirectory(p string) *Error {
	return NewError(CodeNotDirectory, "cannot list "+q(p)+": not a directory", nil)
}

// ResolveNotDirectory is FS_NOT_DIRECTORY `cannot resolve "<p>": not a
// directory, but the path ends in "/" or in a "." or ".." segment` (the path
// names a directory, see NamesDirectory; cause is ENOTDIR).
func ResolveNotDirectory(p string, cause error) *Error {
	return NewError(CodeNotDirectory, "cannot resolve "+q(p)+`: not a directory, but the path ends in "/" or in a "." or ".." segment`, cause)
}

// WriteDirectoryPath is FS_NOT_REGULAR_FILE `cannot write "<p>": the path
// ends in "/" or in a "." or ".." segment, so it names a directory`.
func WriteDirectoryPath(p string) *Error {
	return NewError(CodeNotRegularFile, "cannot write "+q(p)+`: the path ends in "/" or in a "." or ".." segment, so it names a directory`, nil)
}

// ListPermissionDenied is FS_PERMISSION_DENIED `cannot list "<p>": permission denied`.
func ListPermissionDenied(p string, cause error) *Error {
	return NewError(CodePermissionDenied, "cannot list "+q(p)+": permission denied", cause)
}

// ListIOError is FS_IO_ERROR `cannot list "<p>": <os error message>` (OSReason).
func ListIOError(p string, cause error) *Error {
	return NewError(CodeIOError, "cannot list "+q(p)+": "+causeMessage(cause), cause)
}

// WriteHardLinked is FS_IO_ERROR `cannot write "<p>": it has <n> hard links,
// and replacing it would split them (the other names would keep the old
// content)`.
func WriteHardLinked(p string, links uint64) *Error {
	return NewError(CodeIOError, "cannot write "+q(p)+hardLinked(links), nil)
}

// EditHardLinked is WriteHardLinked for edit: `cannot edit "<p>": it has ...`.
func EditHardLinked(p string, links uint64) *Error {
	return NewError(CodeIOError, "cannot edit "+q(p)+hardLinked(links), nil)
}

func hardLinked(links uint64) string {
	return ": it has " + strconv.FormatUint(links, 10) +
		" hard links, and replacing it would split them (the other names would keep the old content)"
}

// OwnerNotKept is FS_PERMISSION_DENIED `cannot <verb> "<p>": it is owned by
// another user (uid <owner>), and replacing it would make this process's user
// (uid <uid>) its owner` (verb is VerbWrite or VerbEdit).
func OwnerNotKept(verb, p string, owner, uid int) *Error {
	return NewError(CodePermissionDenied, "cannot "+verb+" "+q(p)+": it is owned by another user (uid "+strconv.Itoa(owner)+
		"), and replacing it would make this process's user (uid "+strconv.Itoa(uid)+") its owner", nil)
}

// GroupNotKept is FS_PERMISSION_DENIED `cannot <verb> "<p>": its group (gid
// <gid>) is not one of this process's groups, and replacing it would change
// its group`.
func GroupNotKept(verb, p string, gid int) *Error {
	return NewError(CodePermissionDenied, "cannot "+verb+" "+q(p)+": its group (gid "+strconv.Itoa(gid)+
		") is not one of this process's groups, and replacing it would change its group", nil)
}

// WriteIOError is FS_IO_ERROR `cannot write "<p>": <os error message>` (OSReason).
func WriteIOError(p string, cause error) *Error {
	return NewError(CodeIOError, "cannot write "+q(p)+": "+causeMessage(cause), cause)
}

// ReadBinary is FS_NOT_TEXT `cannot read "<p>": binary file`.
func ReadBinary(p string) *Error {
	return NewError(CodeNotText, "cannot read "+q(p)+": binary file", nil)
}

// ReadInvalidUTF8 is FS_NOT_TEXT `cannot read "<p>": invalid UTF-8 text`.
func ReadInvalidUTF8(p string) *Error {
	return NewError(CodeNotText, "cannot read "+q(p)+": invalid UTF-8 text", nil)
}

// WriteBinary is FS_NOT_TEXT `cannot write "<p>": binary file` (the write
// tool, over an existing file that read refuses as binary).
func WriteBinary(p string, cause error) *Error {
	return NewError(CodeNotText, "cannot write "+q(p)+": binary file", cause)
}

// WriteInvalidUTF8 is FS_NOT_TEXT `cannot write "<p>": invalid UTF-8 text`.
func WriteInvalidUTF8(p string, cause error) *Error {
	return NewError(CodeNotText, "cannot write "+q(p)+": invalid UTF-8 text", cause)
}

// EditBinary is FS_NOT_TEXT `cannot edit "<p>": binary file`.
func EditBinary(p string) *Error {
	return NewError(CodeNotText, "cannot edit "+q(p)+": binary file", nil)
}

// EditInvalidUTF8 is FS_NOT_TEXT `cannot edit "<p>": invalid UTF-8 text`.
func EditInvalidUTF8(p string) *Error {
	return NewError(CodeNotText, "cannot edit "+q(p)+": invalid UTF-8 text", nil)
}

// ReadNotRegular is FS_NOT_REGULAR_FILE `cannot read "<p>": not a regular file`.
func ReadNotRegular(p string) *Error {
	return NewError(CodeNotRegularFile, "cannot read "+q(p)+": not a regular file", nil)
}

// WriteNotRegular is FS_NOT_REGULAR_FILE `cannot write "<p>": not a regular file`.
func WriteNotRegular(p string, cause error) *Error {
	return NewError(CodeNotRegularFile, "cannot write "+q(p)+": not a regular file", cause)
}

// EditNotRegular is FS_NOT_REGULAR_FILE `cannot edit "<p>": not a regular file`.
func EditNotRegular(p string) *Error {
	return NewError(CodeNotRegularFile, "cannot edit "+q(p)+": not a regular file", nil)
}

// ReadTooLarge is FS_TOO_LARGE
// `cannot read "<p>": <size> bytes exceeds the <maxBytes>-byte limit`.
func ReadTooLarge(p string, size, maxBytes int64) *Error { return exceeds(VerbRead, p, size, maxBytes) }

// ReadContentTooLarge is FS_TOO_LARGE
// `cannot read "<p>": content exceeds the <maxBytes>-byte limit`.
func ReadContentTooLarge(p string, maxBytes int64) *Error {
	return contentExceeds(VerbRead, p, maxBytes)
}

// WriteTooLarge is FS_TOO_LARGE
// `cannot write "<p>": <size> bytes exceeds the <maxBytes>-byte limit` (the
// bytes a write would publish).
func WriteTooLarge(p string, size, maxBytes int64) *Error {
	return exceeds(VerbWrite, p, size, maxBytes)
}

// EditTooLarge is FS_TOO_LARGE
// `cannot edit "<p>": <size> bytes exceeds the <maxBytes>-byte limit` (the
// file an edit would read).
func EditTooLarge(p string, size, maxBytes int64) *Error { return exceeds(VerbEdit, p, size, maxBytes) }

// EditContentTooLarge is FS_TOO_LARGE
// `cannot edit "<p>": content exceeds the <maxBytes>-byte limit` (the file
// grew past the limit while it was read).
func EditContentTooLarge(p string, maxBytes int64) *Error {
	return contentExceeds(VerbEdit, p, maxBytes)
}

// EditResultTooLarge is FS_TOO_LARGE `cannot edit "<p>": the result would be
// <size> bytes, over the <maxBytes>-byte limit`.
func EditResultTooLarge(p string, size, maxBytes int64) *Error {
	return NewError(CodeTooLarge, "cannot edit "+q(p)+": the result would be "+strconv.FormatInt(size, 10)+
		" bytes, over the "+strconv.FormatInt(maxBytes, 10)+"-byte limit", nil)
}

func exceeds(verb, p string, size, maxBytes int64) *Error {
	return NewError(CodeTooLarge, "cannot "+verb+" "+q(p)+": "+strconv.FormatInt(size, 10)+
		" bytes exceeds the "+strconv.FormatInt(maxBytes, 10)+"-byte limit", nil)
}

func contentExceeds(verb, p string, maxBytes int64) *Error {
	return NewError(CodeTooLarge, "cannot "+verb+" "+q(p)+": content exceeds the "+
		strconv.FormatInt(maxBytes, 10)+"-byte limit", nil)
}

// WriteNoLongerExists is FS_STALE_VERSION `cannot write "<p>": file no longer exists`.
func WriteNoLongerExists(p string) *Error {
	return NewError(CodeStaleVersion, "cannot write "+q(p)+": file no longer exists", nil)
}

// WriteChanged is FS_STALE_VERSION `cannot write "<p>": file changed since it was read`.
func WriteChanged(p string) *Error {
	return NewError(CodeStaleVersion, "cannot write "+q(p)+": file changed since it was read", nil)
}

// EditChanged is FS_STALE_VERSION `cannot edit "<p>": file changed since it was read`.
func EditChanged(p string) *Error {
	return NewError(CodeStaleVersion, "cannot edit "+q(p)+": file changed since it was read", nil)
}

// OverwriteNotObserved is FS_NOT_OBSERVED
// `cannot overwrite existing "<p>" without reading it first`.
func OverwriteNotObserved(p string, cause error) *Error {
	return NewError(CodeNotObserved, "cannot overwrite existing "+q(p)+" without reading it first", cause)
}

// EditNotObserved is FS_NOT_OBSERVED `edit requires reading "<p>" first` (policy).
func EditNotObserved(p string) *Error {
	return NewError(CodeNotObserved, "edit requires reading "+q(p)+" first", nil)
}

// OldStringEmpty is FS_EDIT_NOT_FOUND `old_string must be a non-empty string`.
func OldStringEmpty() *Error {
	return NewError(CodeEditNotFound, "old_string must be a non-empty string", nil)
}

// OldStringNotFound is FS_EDIT_NOT_FOUND `old_string was not found in "<p>"`.
func OldStringNotFound(p string) *Error {
	return NewError(CodeEditNotFound, "old_string was not found in "+q(p), nil)
}

// AmbiguousEdit is FS_AMBIGUOUS_EDIT `old_string matched <n> times in "<p>";
// provide a more specific old_string or set replace_all to true`.
func AmbiguousEdit(n int, p string) *Error {
	return NewError(CodeAmbiguousEdit, "old_string matched "+strconv.Itoa(n)+" times in "+q(p)+
		"; provide a more specific old_string or set replace_all to true", nil)
}

// Aborted is FS_ABORTED `<verb> aborted` (see the Verb constants); cause is the
// context error when known.
func Aborted(verb string, cause error) *Error {
	return NewError(CodeAborted, verb+" aborted", cause)
}

func joinCauses(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return errors.Join(a, b)
}
