package toolfs

import (
	"encoding/json"
	"errors"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// The escalation argument errors (plain errors, no code), spec 4.10.
var (
	errEscalationNoJustification = errors.New("invalid escalation: sandbox_permissions requires a justification")
	errEscalationNoPermissions   = errors.New("invalid escalation: justification is only valid together with sandbox_permissions")
	errEscalationBlank           = errors.New("invalid justification: expected a non-empty sentence")
	errEscalationUnavailable     = errors.New("sandbox_permissions is not available in this composition (no sandboxing filesystem to escalate)")
)

// escalationArgs are the two escalation arguments of write and edit, as sent: a key that is
// present (JSON null included, as a JavaScript `!== undefined` sees it) has a non-empty raw value.
type escalationArgs struct {
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// requested reports whether both escalation arguments are present.
func (e escalationArgs) requested() bool { return len(e.Permissions) > 0 && len(e.Justification) > 0 }

// parseEscalationArgs validates the pairing of the escalation arguments (spec 4.10, in order):
// sandbox_permissions needs a justification, a justification needs sandbox_permissions, and the
// justification must not be blank. It runs for every write and edit, sandboxed or not (the open
// parameter root lets unadvertised fields through). A justification that is not a string is
// refused as blank (the reference fails on it with a JavaScript TypeError).
func parseEscalationArgs(raw json.RawMessage) (escalationArgs, error) {
	var e escalationArgs
	if err := tools.DecodeArgs(raw, &e); err != nil {
		return escalationArgs{}, err
	}
	hasPermissions, hasJustification := len(e.Permissions) > 0, len(e.Justification) > 0
	switch {
	case hasPermissions && !hasJustification:
		return escalationArgs{}, errEscalationNoJustification
	case hasJustification && !hasPermissions:
		return escalationArgs{}, errEscalationNoPermissions
	case hasJustification:
		var s string
		if json.Unmarshal(e.Justification, &s) != nil || isBlank(s) {
			return escalationArgs{}, errEscalationBlank
		}
	}
	return e, nil
}
