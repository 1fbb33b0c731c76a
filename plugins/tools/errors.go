package tools

import (
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// Error codes the runtime itself produces. Tool bodies and seams add their own
// (the fs seam's FS_* codes, for example); the runtime reports any code it finds.
const (
	// CodeUnknownTool: the call names no registered tool.
	CodeUnknownTool = "UNKNOWN_TOOL"
	// CodeInvalidArgs: the arguments violate the tool's parameter schema.
	CodeInvalidArgs = "INVALID_ARGS"
	// CodeInvalidToolOutput: the body (or a post-execute replacement) returned a
	// value that is not lossless JSON or violates the output schema, or a
	// projector (Render, PresentationMeta) failed.
	CodeInvalidToolOutput = "INVALID_TOOL_OUTPUT"
	// CodeAborted: the caller cancelled after the body was invoked.
	CodeAborted = "ABORTED"
	// CodeAbortedBeforeDispatch: the caller cancelled before the body was invoked.
	CodeAbortedBeforeDispatch = "ABORTED_BEFORE_DISPATCH"
	// CodeUnsupportedSchema: a registered schema is outside the enforced subset.
	CodeUnsupportedSchema = "UNSUPPORTED_SCHEMA"
)

// Error names reported in ErrorInfo.Name, one per error class (docs/tools.md).
const (
	// NameHarnessError is the default name of a coded error with no Name method.
	NameHarnessError = "HarnessError"
	// NameToolArgsError names INVALID_ARGS failures.
	NameToolArgsError = "ToolArgsError"
	// NameToolNotFoundError names UNKNOWN_TOOL failures.
	NameToolNotFoundError = "ToolNotFoundError"
	// NameToolOutputError names INVALID_TOOL_OUTPUT failures.
	NameToolOutputError = "ToolOutputError"
	// NameAbortError names the two cancellation outcomes.
	NameAbortError = "AbortError"
	// NameJSONSchemaError names UNSUPPORTED_SCHEMA failures.
	NameJSONSchemaError = "JsonSchemaError"
)

// Coded is implemented by errors that carry a stable machine code. The runtime
// finds it with errors.As anywhere in the chain and reports {name, code}.
type Coded interface {
	error
	Code() string
}

// Named is optionally implemented by a Coded error to name its class. Without it the name is
// "HarnessError".
type Named interface {
	Name() string
}

// Error is the coded error class of the tools seam (name
// "HarnessError"). Create it with NewError; it works with errors.As (as Coded
// or *Error) and with errors.Is against another *Error of the same code whose
// message is empty (see the Err* sentinels).
type Error struct {
	name       string
	code       string
	message    string
	cause      error
	violations []string
}

var _ Coded = (*Error)(nil)
var _ Named = (*Error)(nil)

// NewError returns an *Error with the given class name ("" means
// "HarnessError"), code, message and optional cause.
func NewError(name, code, message string, cause error) *Error {
	return &Error{name: name, code: code, message: message, cause: cause}
}

// Error returns the message (the model sees "Error: " + this text).
func (e *Error) Error() string { return e.message }

// Code returns the machine code.
func (e *Error) Code() string { return e.code }

// Name returns the error class name.
func (e *Error) Name() string {
	if e.name == "" {
		return NameHarnessError
	}
	return e.name
}

// Message returns the message without any envelope.
func (e *Error) Message() string { return e.message }

// Violations returns the individual violations of an INVALID_ARGS,
// INVALID_TOOL_OUTPUT or UNSUPPORTED_SCHEMA error, in walk order (nil otherwise).
func (e *Error) Violations() []string { return e.violations }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// Is reports whether target is an *Error sentinel (empty message) with the
// same code, so errors.Is(err, tools.ErrInvalidArgs) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.message == "" && t.code == e.code
}

// Sentinels for errors.Is: they match any *Error of the same code.
var (
	ErrUnknownTool           = &Error{code: CodeUnknownTool}
	ErrInvalidArgs           = &Error{code: CodeInvalidArgs}
	ErrInvalidToolOutput     = &Error{code: CodeInvalidToolOutput}
	ErrAborted               = &Error{code: CodeAborted}
	ErrAbortedBeforeDispatch = &Error{code: CodeAbortedBeforeDispatch}
	ErrUnsupportedSchema     = &Error{code: CodeUnsupportedSchema}
)

func newArgsError(violations []string) *Error {
	e := NewError(NameToolArgsError, CodeInvalidArgs, "invalid arguments: "+joinViolations(violations), nil)
	e.violations = violations
	return e
}

func newOutputError(tool string, violations []string) *Error {
	e := NewError(NameToolOutputError, CodeInvalidToolOutput, "tool "+quote(tool)+" returned invalid output: "+joinViolations(violations), nil)
	e.violations = violations
	return e
}

// newSchemaError is UNSUPPORTED_SCHEMA for the error of argcheck.Compile (a *argcheck.SchemaError,
// whose violations it keeps).
func newSchemaError(err error) *Error {
	e := NewError(NameJSONSchemaError, CodeUnsupportedSchema, err.Error(), nil)
	if se, ok := errors.AsType[*argcheck.SchemaError](err); ok {
		e.violations = se.Violations
	}
	return e
}

func newUnknownToolError(name string) *Error {
	return NewError(NameToolNotFoundError, CodeUnknownTool, "unknown tool "+quote(name), nil)
}

// quote wraps s in double quotes verbatim (no escaping, unlike %q).
func quote(s string) string { return `"` + s + `"` }

func joinViolations(v []string) string {
	return strings.Join(v, "; ")
}

// infoOf returns the {name, code} of the first Coded error in err's chain.
func infoOf(err error) (name, code string, ok bool) {
	var c Coded
	if !errors.As(err, &c) {
		return "", "", false
	}
	code = c.Code()
	if code == "" {
		return "", "", false
	}
	name = NameHarnessError
	if n, isNamed := c.(Named); isNamed {
		if s := n.Name(); s != "" {
			name = s
		}
	}
	return name, code, true
}
