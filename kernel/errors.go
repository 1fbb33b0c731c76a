package kernel

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrInactive is returned when a registration is attempted through a context whose plugin
// instance is no longer loading or active.
var ErrInactive = errors.New("kernel: cannot create effect on inactive context")

// ErrDuplicateService is matched (errors.Is) by the error of a second live provider of a service.
var ErrDuplicateService = errors.New("kernel: duplicate service")

// PanicError is a recovered panic from a listener, an Apply function or a disposer.
// errors.As finds it; when the panic value is an error, errors.Is and errors.As see through it.
type PanicError struct {
	Where string // "event fs/observed", "apply fs-local", "dispose fs-local"
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic in %s: %v", e.Where, e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

func recovered(where string, v any) error {
	return &PanicError{Where: where, Value: v, Stack: debug.Stack()}
}

type duplicateServiceError struct {
	name  string
	owner string
}

func (e *duplicateServiceError) Error() string {
	return fmt.Sprintf("service %q has been registered at %s", e.name, e.owner)
}

func (e *duplicateServiceError) Is(target error) bool { return target == ErrDuplicateService }
