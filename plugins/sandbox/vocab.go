package sandbox

import (
	"fmt"
)

// Modes lists every sandbox mode, narrow to wide (docs/sandbox.md
// "Modes and the policy").
var Modes = []Mode{ReadOnly, WorkspaceWrite, DangerFullAccess}

// EscalationTargets is the closed enum the write and edit schemas advertise for
// sandbox_permissions (ESCALATION_TARGETS): read-only is the floor, nothing escalates to it.
var EscalationTargets = []Mode{WorkspaceWrite, DangerFullAccess}

// ValidMode reports whether m is one of Modes.
func ValidMode(m Mode) bool {
	for _, x := range Modes {
		if m == x {
			return true
		}
	}
	return false
}

// Wider returns the modes strictly wider than effective (WIDER_MODES); an unknown mode and
// danger-full-access have none.
func Wider(effective Mode) []Mode {
	switch effective {
	case ReadOnly:
		return []Mode{WorkspaceWrite, DangerFullAccess}
	case WorkspaceWrite:
		return []Mode{DangerFullAccess}
	}
	return nil
}

// IsWider reports whether requested is strictly wider than effective.
func IsWider(requested, effective Mode) bool {
	for _, m := range Wider(effective) {
		if m == requested {
			return true
		}
	}
	return false
}

// Subjects of the escalation texts: fs tools speak of an operation, shell tools of a command.
const (
	SubjectOperation = "operation"
	SubjectCommand   = "command"
)

// DenialMarker is the model-facing marker of a sandbox denial under mode (docs/tool-fs.md
// "Sandbox escalation").
func DenialMarker(mode Mode) string {
	return fmt.Sprintf("[sandbox: file access denied under %s mode]", mode)
}

// EscalationHint is the same-turn escalation hint that follows a denial marker.
func EscalationHint(subject string) string {
	return "[sandbox: escalation available — retry this exact " + subject +
		" once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]"
}

// WidenHint is the guidance line of a denial where no approval channel can widen the access: how
// the user widens the roots (docs/sandbox.md "Roots").
const WidenHint = "To allow it, the user restarts harness with --root DIR (read-write) or --read-only-root DIR; the model cannot widen the roots."
