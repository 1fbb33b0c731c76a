package sandbox

import (
	"errors"

	"github.com/cordon-dev/cordon/internal/texts"
)

// The escalation argument pairing errors (plain errors, no code; docs/tool-fs.md "Sandbox
// escalation").
var (
	ErrEscalationNoJustification = errors.New("invalid escalation: sandbox_permissions requires a justification")
	ErrEscalationNoPermissions   = errors.New("invalid escalation: justification is only valid together with sandbox_permissions")
	ErrEscalationBlank           = errors.New("invalid justification: expected a non-empty sentence")
	// ErrEscalationNotAvailable is the refusal of sandbox_permissions by a file tool whose
	// filesystem does not confine.
	ErrEscalationNotAvailable = errors.New("sandbox_permissions is not available in this composition (no sandboxing filesystem to escalate)")
)

// ValidateEscalationArgs checks the pairing a tool schema cannot express, in order: a
// sandbox_permissions needs a justification, a justification needs a sandbox_permissions, and
// the justification must not be blank (JavaScript trim semantics: Unicode white space and line
// terminators). nil means the argument is absent. Neither argument, or both with a non-blank
// justification, passes; the justification is otherwise used as sent (not trimmed).
func ValidateEscalationArgs(permissions, justification *string) error {
	switch {
	case permissions != nil && justification == nil:
		return ErrEscalationNoJustification
	case justification != nil && permissions == nil:
		return ErrEscalationNoPermissions
	case justification != nil && texts.IsBlank(*justification):
		return ErrEscalationBlank
	}
	return nil
}
