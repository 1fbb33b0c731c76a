package sandbox

import "errors"

// The escalation argument pairing errors (plain errors, no code; spec sandbox 3.2).
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
	case justification != nil && IsBlank(*justification):
		return ErrEscalationBlank
	}
	return nil
}

// IsBlank reports whether s is empty after JavaScript's String.prototype.trim: every rune is
// white space (TAB, VT, FF, SP, NBSP, ZWNBSP and the Unicode Space_Separator class) or a line
// terminator (LF, CR, LS, PS).
func IsBlank(s string) bool {
	for _, r := range s {
		switch {
		case r == '\t', r == '\n', r == '\v', r == '\f', r == '\r', r == ' ', r == 0xA0, r == 0x1680,
			r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F,
			r == 0x3000, r == 0xFEFF:
		default:
			return false
		}
	}
	return true
}
