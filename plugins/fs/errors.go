package fs

import "github.com/cordon-dev/cordon/internal/coded"

// Code is the stable code of an *Error. The set is closed.
type Code string

// The closed set of filesystem error codes.
const (
	CodeNotFound         Code = "FS_NOT_FOUND"
	CodeNotDirectory     Code = "FS_NOT_DIRECTORY"
	CodeNotText          Code = "FS_NOT_TEXT"
	CodeNotRegularFile   Code = "FS_NOT_REGULAR_FILE"
	CodeTooLarge         Code = "FS_TOO_LARGE"
	CodePermissionDenied Code = "FS_PERMISSION_DENIED"
	CodeSandboxDenied    Code = "FS_SANDBOX_DENIED"
	CodeIOError          Code = "FS_IO_ERROR"
	CodeStaleVersion     Code = "FS_STALE_VERSION"
	CodeNotObserved      Code = "FS_NOT_OBSERVED"
	CodeAmbiguousEdit    Code = "FS_AMBIGUOUS_EDIT"
	CodeEditNotFound     Code = "FS_EDIT_NOT_FOUND"
	CodeAborted          Code = "FS_ABORTED"
	// CodeWouldDrop refuses a whole-file write that would drop lines the model never saw or that it
	// elided with a placeholder (docs/tool-fs.md "Writes that would drop lines").
	CodeWouldDrop Code = "FS_WOULD_DROP_LINES"
)

// Codes lists every Code in the order of the specification.
var Codes = []Code{
	CodeNotFound, CodeNotDirectory, CodeNotText, CodeNotRegularFile, CodeTooLarge,
	CodePermissionDenied, CodeSandboxDenied, CodeIOError, CodeStaleVersion,
	CodeNotObserved, CodeAmbiguousEdit, CodeEditNotFound, CodeAborted,
}

// ErrorName is the Name of every *Error.
const ErrorName = "FsError"

// ErrorName names the seam's errors; it makes Code a coded.Kind.
func (Code) ErrorName() string { return ErrorName }

// Error is the filesystem error: a stable Kind (its code), the exact message and an optional
// cause; its Name is "FsError" and Code() returns the code as a string, so a tool envelope can
// expose {name, code}. It is the one coded-error type of the seams (internal/coded).
type Error = coded.Error[Code]

// Code sentinels: errors.Is(err, ErrStaleVersion) matches any *Error in err's
// chain with that code, whatever its message.
var (
	ErrNotFound         = &Error{Kind: CodeNotFound}
	ErrNotDirectory     = &Error{Kind: CodeNotDirectory}
	ErrNotText          = &Error{Kind: CodeNotText}
	ErrNotRegularFile   = &Error{Kind: CodeNotRegularFile}
	ErrTooLarge         = &Error{Kind: CodeTooLarge}
	ErrPermissionDenied = &Error{Kind: CodePermissionDenied}
	ErrSandboxDenied    = &Error{Kind: CodeSandboxDenied}
	ErrIOError          = &Error{Kind: CodeIOError}
	ErrStaleVersion     = &Error{Kind: CodeStaleVersion}
	ErrNotObserved      = &Error{Kind: CodeNotObserved}
	ErrAmbiguousEdit    = &Error{Kind: CodeAmbiguousEdit}
	ErrEditNotFound     = &Error{Kind: CodeEditNotFound}
	ErrAborted          = &Error{Kind: CodeAborted}
)

// NewError returns an *Error with the given code, message and cause.
func NewError(code Code, message string, cause error) *Error {
	return &Error{Kind: code, Message: message, Cause: cause}
}

// CodeOf returns the code of the first *Error in err's chain, or "" if none.
func CodeOf(err error) Code { return coded.CodeOf[Code](err) }

// HasCode reports whether err's chain holds an *Error with the given code.
func HasCode(err error, code Code) bool { return coded.HasCode(err, code) }
