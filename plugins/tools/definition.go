package tools

import (
	"context"
	"encoding/json"
	"time"
)

// Tool is a typed tool: In is its arguments (decoded from the call's JSON with exact key matching,
// after the JSON was checked against Parameters), Out its canonical value. Register it with
// Runtime.Register(kc, t.Definition()).
//
//	rt.Register(kc, tools.Tool[readArgs, ReadValue]{
//		Name: "read", Description: "...", Parameters: schema,
//		Execute: func(ctx context.Context, in readArgs, exec *tools.Exec) (ReadValue, error) { ... },
//		Render:  func(in readArgs, v ReadValue) []tools.Content { return []tools.Content{tools.TextContent(...)} },
//	}.Definition())
type Tool[In, Out any] struct {
	// Name is the unique tool name.
	Name string
	// Description is sent to the model verbatim.
	Description string
	// Parameters is the JSON schema of the arguments, sent to the model verbatim (property order
	// kept). Its root must be type "object"; the root is open unless it says additionalProperties:
	// false, so unknown keys are accepted (and ignored by In). nil means
	// {"type":"object","properties":{}}. The runtime checks the arguments against it before they
	// are decoded into In (INVALID_ARGS).
	Parameters json.RawMessage
	// Execute runs one accepted call. ctx is the caller's context (fused with any tools/execute
	// wrapper's); a body that honours it returns promptly on cancellation. A returned error becomes
	// the failure envelope; a panic is recovered into one.
	Execute func(ctx context.Context, in In, exec *Exec) (Out, error)
	// Render projects a successful value to the model-facing content. It must be pure; a panic
	// becomes INVALID_TOOL_OUTPUT `output.render failed: ...`.
	Render func(in In, out Out) []Content
	// PresentationMeta optionally projects a successful top-level value to the replayable UI meta
	// (it must encode as JSON). nil means no meta.
	PresentationMeta func(in In, out Out) any
	// ConcurrencySafe reports whether a call may overlap sibling calls; nil, false or a panic is
	// exclusive.
	ConcurrencySafe func(in In) bool
	// Timeout is a cooperative budget for timeout wrappers on tools/execute; 0 means none.
	Timeout time.Duration
	// Guidance is the tool's system-prompt section, or nil.
	Guidance *Guidance
	// Annotations are behaviour hints for hosts (MCP tool annotations).
	Annotations Annotations
}

// Definition is the registrable form of a Tool: what the model and hosts see of it, and the
// tool's typed body behind it. A Definition is made by Tool.Definition; its zero value has no body
// and cannot be registered.
type Definition struct {
	Name        string
	Description string
	// Parameters is the argument schema as sent to the model.
	Parameters json.RawMessage
	// OutputSchema is the schema of the canonical value, derived from the tool's Out type (nil for
	// an interface type); hosts list it when they send the value (MCP structuredContent).
	OutputSchema json.RawMessage
	Timeout      time.Duration
	Guidance     *Guidance
	Annotations  Annotations

	body body
}

// Definition returns t in the form Runtime.Register takes.
func (t Tool[In, Out]) Definition() Definition {
	return Definition{
		Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: outputSchema[Out](),
		Timeout: t.Timeout, Guidance: t.Guidance, Annotations: t.Annotations, body: newTyped(t),
	}
}

// Guidance is a tool's guidance section. Sections render only for registered (visible) tools, in
// ascending Order, then by tool name.
type Guidance struct {
	// Order places the section (tools use 100-199).
	Order int
	// Text returns the section text; visible reports whether another tool is currently visible, so
	// a section may mention it only when present. Returning "" drops the section.
	Text func(visible func(name string) bool) string
}

// StaticGuidance returns a Guidance with fixed text.
func StaticGuidance(order int, text string) *Guidance {
	return &Guidance{Order: order, Text: func(func(string) bool) string { return text }}
}

// Annotations are hints about a tool's behaviour for hosts and UIs (the MCP tool annotations).
// They are never enforced.
type Annotations struct {
	// Title is a human-readable title.
	Title string
	// ReadOnly: the tool does not modify its environment.
	ReadOnly bool
	// Destructive: the tool may destroy or overwrite data (meaningful only when not ReadOnly).
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
