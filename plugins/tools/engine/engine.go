// Package engine is what Cordon's front ends (the MCP host, package mcphost, and the JSON-lines run
// protocol, package jsonlines) need from a composed kernel: the visible tools, the server
// instructions, sessions and calls. The production implementation (Tools) adapts the tools runtime;
// tests of the front ends use a fake (enginetest).
package engine

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Engine runs tool calls for a front end.
type Engine interface {
	// Tools lists the visible tool definitions in registration order.
	Tools() []ToolInfo
	// Instructions is the guidance text for the visible tools, then the plugins' standing-policy
	// statements (the MCP server instructions).
	Instructions() string
	// OpenSession starts an agent session with the given identity.
	OpenSession(id string) Session
	// Call executes one tool call; sess may be nil for a call with no agent session. It never fails:
	// every failure is an error result. The front end converts the result to its wire once.
	Call(ctx context.Context, sess Session, tool string, args json.RawMessage) tools.Result
}

// Session is one agent session: it owns observations and carries the header (cwd, model).
type Session interface {
	// SetHeader sets the session header fields that are non-nil.
	SetHeader(cwd, model *string)
	// End ends the session (its observations are released).
	End()
}

// ClientRecorder is a session that records the client driving it (tools.Header.Client).
type ClientRecorder interface {
	SetClient(name, version string)
}

// Exposer is a session that knows which tools it sees (the tools plugin's expose rules,
// docs/tools.md "Exposure"). Sessions of other engines see every tool.
type Exposer interface {
	Exposes(name string) bool
}

// ToolWatcher is an engine whose visible tools can change while it serves (a plugin that registers
// a tool is loaded or disposed, read_image follows its attachment store).
type ToolWatcher interface {
	// WatchTools calls fn after each change of the visible tools until the returned stop is called.
	WatchTools(fn func()) (stop func())
}

// ToolInfo is a tool definition as the model sees it.
type ToolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the canonical value's schema, or nil.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Title and the hints are the MCP tool annotations.
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"readOnly"`
	Destructive bool   `json:"destructive"`
	Idempotent  bool   `json:"idempotent"`
	OpenWorld   bool   `json:"openWorld"`
}

// Names lists the names of eng's visible tools.
func Names(eng Engine) []string {
	var names []string
	for _, t := range eng.Tools() {
		names = append(names, t.Name)
	}
	return names
}

// DurableOwner is a session whose observations can outlive the process (docs/history.md
// "Observations across restarts").
type DurableOwner interface {
	SetDurableOwner(key string)
}
