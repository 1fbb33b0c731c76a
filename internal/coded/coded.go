// Package coded is the one coded-error type of the seams: an error with a stable code from a closed
// set, the exact message a model sees, and an optional cause. Each seam instantiates it with its own
// code type, whose ErrorName is the error's name ({name, code} in a tool result's error info):
//
//	type Code string
//	func (Code) ErrorName() string { return "FsError" }
//	type Error = coded.Error[Code]
//
//	err := &Error{Kind: CodeStaleVersion, Message: `cannot edit "a.txt": file changed since it was read`}
//	errors.Is(err, &Error{Kind: CodeStaleVersion}) // true: a code sentinel matches any message
//
// Two seams' errors are distinct types, so errors.As tells them apart.
package coded

import "errors"

// Kind is a seam's code type: a string with the name of the seam's errors.
type Kind interface {
	~string
	ErrorName() string
}

// Error is a coded error: Kind is its code, Message its exact text, Cause what caused it.
type Error[K Kind] struct {
	Kind    K
	Message string
	Cause   error
}

// Error returns the message.
func (e *Error[K]) Error() string { return e.Message }

// Code returns the code as a string.
func (e *Error[K]) Code() string { return string(e.Kind) }

// Name returns the seam's error name.
func (e *Error[K]) Name() string { return e.Kind.ErrorName() }

// Unwrap returns the cause.
func (e *Error[K]) Unwrap() error { return e.Cause }

// Is reports whether target is an *Error of the same seam with the same code and either an empty
// message (a code sentinel) or the same message.
func (e *Error[K]) Is(target error) bool {
	t, ok := target.(*Error[K])
	if !ok || t == nil || e == nil {
		return false
	}
	return t.Kind == e.Kind && (t.Message == "" || t.Message == e.Message)
}

// CodeOf returns the code of the first *Error[K] in err's chain, or "" if none.
func CodeOf[K Kind](err error) K {
	if e, ok := errors.AsType[*Error[K]](err); ok {
		return e.Kind
	}
	return ""
}

// HasCode reports whether err's chain holds an *Error[K] with the given code.
func HasCode[K Kind](err error, code K) bool { return errors.Is(err, &Error[K]{Kind: code}) }
