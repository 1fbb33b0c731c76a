package fs

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/kernel"
)

// InvariantID is the catalog name of the fs event invariant companion.
const InvariantID = "fs-invariant"

// ErrInvariant matches (errors.Is) every *InvariantError.
var ErrInvariant = errors.New("fs event invariant violated")

// InvariantError is a malformed fs/* event payload. Message is the exact
// contract text (e.g. "filesystem event targetKey must be non-empty").
type InvariantError struct{ Message string }

// Error returns the message.
func (e *InvariantError) Error() string { return e.Message }

// Is reports target == ErrInvariant.
func (e *InvariantError) Is(target error) bool { return target == ErrInvariant }

var _ error = (*InvariantError)(nil)

// CheckTarget returns the violation of a target carried by an fs/* event, or
// nil: both the key and the display path must be non-empty.
func CheckTarget(t Target) error {
	if t.Key == "" {
		return &InvariantError{"filesystem event targetKey must be non-empty"}
	}
	if t.DisplayPath == "" {
		return &InvariantError{"filesystem event displayPath must be non-empty"}
	}
	return nil
}

// CheckObserved returns the violation of an fs/observed payload, or nil: a
// usable target, and an observation that is absent or present with a
// non-empty version.
func CheckObserved(a ObservedArgs) error {
	if err := CheckTarget(a.Target); err != nil {
		return err
	}
	switch a.Observation.Kind {
	case ObservedPresent:
		if a.Observation.Version == "" {
			return &InvariantError{"fs/observed present version must be non-empty"}
		}
	case ObservedAbsent:
	default:
		return &InvariantError{"fs/observed kind must be present or absent"}
	}
	return nil
}

// Invariant is the fs-invariant module, a development aid: it registers
// checks ahead of every other listener (kernel.Prepend) on the three fs/*
// events, so a malformed payload fails the dispatch with an *InvariantError
// (the waterfall run, or the fs/observed emit) whatever the policy in place.
// Load it explicitly; it is not in the default catalog.
var Invariant = kernel.Define[struct{}](InvariantID, func(kc *kernel.Context, _ struct{}) error {
	if _, err := WriteIntentEvent.On(kc, func(_ context.Context, a IntentArgs, next func() (*WriteIntent, error)) (*WriteIntent, error) {
		if err := CheckTarget(a.Target); err != nil {
			return nil, err
		}
		return next()
	}, kernel.Prepend()); err != nil {
		return err
	}
	if _, err := EditIntentEvent.On(kc, func(_ context.Context, a IntentArgs, next func() (*EditGuard, error)) (*EditGuard, error) {
		if err := CheckTarget(a.Target); err != nil {
			return nil, err
		}
		return next()
	}, kernel.Prepend()); err != nil {
		return err
	}
	_, err := ObservedEvent.On(kc, func(_ context.Context, a ObservedArgs) error { return CheckObserved(a) }, kernel.Prepend())
	return err
})
