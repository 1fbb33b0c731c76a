// Package invariant is the fs-invariant plugin, a development aid: loaded explicitly (it is in
// no default composition), it checks every fs/* payload ahead of every other listener and fails
// the dispatch with an *Error (errors.Is Err) carrying the contract's text: a non-empty target key
// and display path, and a present observation with a version (docs/fs.md "The provider contract").
package invariant

import (
	"context"
	"errors"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// ID is the catalog name of the plugin.
const ID = "fs-invariant"

// Err matches (errors.Is) every *Error.
var Err = errors.New("fs event invariant violated")

// Error is a malformed fs/* event payload. Message is the exact contract text (e.g.
// "filesystem event targetKey must be non-empty").
type Error struct{ Message string }

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Is reports target == Err.
func (e *Error) Is(target error) bool { return target == Err }

var _ error = (*Error)(nil)

// CheckTarget returns the violation of a target carried by an fs/* event, or nil: both the key
// and the display path must be non-empty.
func CheckTarget(t fs.Target) error {
	if t.Key == "" {
		return &Error{"filesystem event targetKey must be non-empty"}
	}
	if t.DisplayPath == "" {
		return &Error{"filesystem event displayPath must be non-empty"}
	}
	return nil
}

// CheckObserved returns the violation of an fs/observed payload, or nil: a usable target, and an
// observation that is absent or present with a non-empty version.
func CheckObserved(a fs.ObservedArgs) error {
	if err := CheckTarget(a.Target); err != nil {
		return err
	}
	switch a.Observation.Kind {
	case fs.ObservedPresent:
		if a.Observation.Version == "" {
			return &Error{"fs/observed present version must be non-empty"}
		}
	case fs.ObservedAbsent:
	default:
		return &Error{"fs/observed kind must be present or absent"}
	}
	return nil
}

// Plugin is the fs-invariant module: it registers the checks ahead of every other listener
// (kernel.Prepend) on the three fs/* events, so a malformed payload fails the dispatch (the
// waterfall run, or the fs/observed emit) whatever the policy in place.
var Plugin = kernel.Define[struct{}](ID, func(kc *kernel.Context, _ struct{}) error {
	if _, err := fs.WriteIntentEvent.On(kc, func(_ context.Context, a fs.IntentArgs, next func() (*fs.WriteIntent, error)) (*fs.WriteIntent, error) {
		if err := CheckTarget(a.Target); err != nil {
			return nil, err
		}
		return next()
	}, kernel.Prepend()); err != nil {
		return err
	}
	if _, err := fs.EditIntentEvent.On(kc, func(_ context.Context, a fs.IntentArgs, next func() (*fs.EditGuard, error)) (*fs.EditGuard, error) {
		if err := CheckTarget(a.Target); err != nil {
			return nil, err
		}
		return next()
	}, kernel.Prepend()); err != nil {
		return err
	}
	_, err := fs.ObservedEvent.On(kc, func(_ context.Context, a fs.ObservedArgs) error { return CheckObserved(a) }, kernel.Prepend())
	return err
})

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))
