package userapproval

import "errors"

// Policy is a session's approval policy: what happens to an ask before any answerer sees it.
type Policy string

// The approval policies.
const (
	// PolicyAsk (the default) hands the ask to the composed answerers; with none, the request
	// fails closed (unavailable).
	PolicyAsk Policy = "ask"
	// PolicyNever prompts nobody: every ask is rejected, deterministically.
	PolicyNever Policy = "never"
)

// Policies lists every policy, for advertisement and validation of untrusted strings.
var Policies = []Policy{PolicyAsk, PolicyNever}

// ErrInvalidPolicy refuses a policy outside Policies.
var ErrInvalidPolicy = errors.New(`approval policy must be one of "ask" or "never"`)

// Valid reports whether p is one of Policies.
func (p Policy) Valid() bool { return p == PolicyAsk || p == PolicyNever }

// The model-facing statements of the approval:policy context (verbatim).
const (
	askSentence   = "Approval policy: ask. Operations that require approval may ask through the configured answerers; without an available answerer, the request fails closed."
	neverSentence = "Approval prompts are disabled in this session: actions that require approval are rejected automatically — do not request sandbox escalation (do not set `sandbox_permissions`)."
)

// The runtime-context contribution of the policy: a host that assembles a runtime context before
// each model request renders Service.ContextText under this name, in this order.
const (
	ContextName  = "approval:policy"
	ContextOrder = 115
)

// PolicyText is the model-facing statement of p; "" for a policy outside the vocabulary.
func PolicyText(p Policy) string {
	switch p {
	case PolicyAsk:
		return askSentence
	case PolicyNever:
		return neverSentence
	}
	return ""
}

// ChangeNotice is the user message that announces a policy switch to the model:
// `The approval policy changed from "<previous>" to "<next>" (changed by the user).`
func ChangeNotice(previous, next Policy) string {
	return `The approval policy changed from "` + string(previous) + `" to "` + string(next) + `" (changed by the user).`
}
