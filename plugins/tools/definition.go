package tools

import (
	"context"
	"encoding/json"
	"time"
)

// Definition is one tool. Name, Description and Parameters are what the model
// sees; everything else stays in the process.
type Definition struct {
	// Name is the unique tool name. "run_code" is reserved.
	Name string
	// Description is sent to the model verbatim.
	Description string
	// Parameters is the JSON schema of the arguments, sent to the model
	// verbatim (property order kept). Its root must be type "object"; the root
	// is open unless it says additionalProperties: false, so unknown keys reach
	// the body. nil means {"type":"object","properties":{}}. The runtime checks
	// the arguments against it before the body runs (INVALID_ARGS).
	Parameters json.RawMessage
	// OutputSchema is the JSON schema every successful value must satisfy
	// (INVALID_TOOL_OUTPUT otherwise); nil accepts any JSON value.
	OutputSchema json.RawMessage
	// Execute runs one accepted call and returns the canonical value (any Go
	// value whose encoding/json form is lossless JSON). args is a private copy
	// of the validated argument JSON; decode it with DecodeArgs. ctx is the
	// caller's context (fused with any tools/execute wrapper's); a body that
	// honours it returns promptly on cancellation. A returned error becomes
	// the failure envelope; a panic is recovered into one.
	Execute func(ctx context.Context, args json.RawMessage, exec *Exec) (any, error)
	// Render projects a successful value to the model-facing content. It must
	// be pure; a panic becomes INVALID_TOOL_OUTPUT `output.render failed: ...`.
	Render func(args json.RawMessage, value any) []Content
	// PresentationMeta optionally projects a successful top-level value to the
	// replayable UI meta (must encode as lossless JSON). nil means no meta.
	PresentationMeta func(args json.RawMessage, value any) any
	// ConcurrencySafe reports whether a call may overlap sibling calls. Only
	// true for schema-valid args counts; nil, false or a panic is exclusive.
	ConcurrencySafe func(args json.RawMessage) bool
	// Timeout is a cooperative budget for timeout wrappers on tools/execute;
	// 0 means none. Never sent to the model.
	Timeout time.Duration
	// Guidance is the tool's system-prompt section, or nil.
	Guidance *Guidance
	// Annotations are behaviour hints for hosts (MCP tool annotations).
	Annotations Annotations
}

// Guidance is a tool's guidance section. Sections render only for registered
// (visible) tools, in ascending Order, then by tool name.
type Guidance struct {
	// Order places the section (the reference uses 100-199 for tools).
	Order int
	// Text returns the section text; visible reports whether another tool is
	// currently visible, so a section may mention it only when present.
	// Returning "" drops the section.
	Text func(visible func(name string) bool) string
}

// StaticGuidance returns a Guidance with fixed text.
func StaticGuidance(order int, text string) *Guidance {
	return &Guidance{Order: order, Text: func(func(string) bool) string { return text }}
}

// Annotations are hints about a tool's behaviour for hosts and UIs (the MCP
// tool annotations). They are never enforced.
type Annotations struct {
	// Title is a human-readable title.
	Title string
	// ReadOnly: the tool does not modify its environment.
	ReadOnly bool
	// Destructive: the tool may destroy or overwrite data (meaningful only when
	// not ReadOnly).
	Destructive bool
	// Idempotent: repeating a call with the same arguments has no further effect.
	Idempotent bool
	// OpenWorld: the tool reaches outside the local environment.
	OpenWorld bool
}

// Schema is the model-facing projection of a Definition.
type Schema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// GuidanceSection is one rendered guidance section ("tool:<name>").
type GuidanceSection struct {
	Name  string
	Order int
	Text  string
}

// ReservedName is the tool name reserved for the reference's Code Mode
// transport; it cannot be registered.
const ReservedName = "run_code"
