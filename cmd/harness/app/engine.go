package app

import (
	"context"
	"encoding/json"
)

// engine is what the serve and run front ends need from a composed kernel: the visible tools, the
// guidance text, sessions and calls. The production implementation adapts the tools runtime
// (toolsEngine); tests of the front ends may use a fake.
type engine interface {
	// Tools lists the visible tool definitions in registration order.
	Tools() []toolInfo
	// Instructions is the guidance text for the visible tools (the MCP server instructions).
	Instructions() string
	// OpenSession starts an agent session with the given identity.
	OpenSession(id string) session
	// Call executes one tool call; sess may be nil for a call with no agent session. It never fails:
	// every failure is an error outcome.
	Call(ctx context.Context, sess session, tool string, args json.RawMessage) outcome
}

// session is one agent session: it owns observations and carries the header (cwd, model).
type session interface {
	// SetHeader sets the session header fields that are non-nil.
	SetHeader(cwd, model *string)
	// End ends the session (its observations are released).
	End()
}

// toolInfo is a tool definition as the model sees it.
type toolInfo struct {
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

// block is one model-facing content block: text, or an image with base64 data.
type block struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
	Data      string `json:"data,omitempty"`
}

// outcome is the normalized result of one call.
type outcome struct {
	IsError bool
	Content []block
	// Code and ErrorName are the error's structured info; empty when the error carries none.
	Code      string
	ErrorName string
	// Value is the canonical value on success (nil on failure); Meta the presentation meta or nil.
	// Both are encoded with encoding/json only where a front end sends them.
	Value any
	Meta  any
}

// text joins the text blocks with "\n".
func (o outcome) text() string {
	var s []byte
	first := true
	for _, b := range o.Content {
		if b.Type != "text" {
			continue
		}
		if !first {
			s = append(s, '\n')
		}
		first = false
		s = append(s, b.Text...)
	}
	return string(s)
}
