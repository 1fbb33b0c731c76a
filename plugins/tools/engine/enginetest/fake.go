// Package enginetest is a fake engine.Engine for the front ends' tests: it records sessions and
// calls and answers with canned results.
package enginetest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// Fake answers tool "echo" with text, image and text blocks and its args as the value, "empty"
// with an empty text block, "fail" with a coded error; anything else is unknown.
type Fake struct {
	mu       sync.Mutex
	opened   []string
	ended    []string
	calls    []Call
	sessions map[string]*Session
}

// Call is one recorded call with its session's header at the time.
type Call struct {
	Session string // "" for no session
	Tool    string
	Args    string
	Cwd     string
	Model   string
}

// Session is a fake agent session.
type Session struct {
	eng        *Fake
	id         string
	cwd, model string
}

// New returns an empty Fake.
func New() *Fake { return &Fake{sessions: map[string]*Session{}} }

// Opened lists the ids of the sessions opened, in order.
func (f *Fake) Opened() []string { f.mu.Lock(); defer f.mu.Unlock(); return slices.Clone(f.opened) }

// Ended lists the ids of the sessions ended, in order.
func (f *Fake) Ended() []string { f.mu.Lock(); defer f.mu.Unlock(); return slices.Clone(f.ended) }

// Calls lists the calls made, in order.
func (f *Fake) Calls() []Call { f.mu.Lock(); defer f.mu.Unlock(); return slices.Clone(f.calls) }

func (s *Session) SetHeader(cwd, model *string) {
	s.eng.mu.Lock()
	defer s.eng.mu.Unlock()
	if cwd != nil {
		s.cwd = *cwd
	}
	if model != nil {
		s.model = *model
	}
}

func (s *Session) End() {
	s.eng.mu.Lock()
	defer s.eng.mu.Unlock()
	s.eng.ended = append(s.eng.ended, s.id)
}

// Tools lists "echo" (read-only) and "fail" (destructive).
func (f *Fake) Tools() []engine.ToolInfo {
	return []engine.ToolInfo{
		{Name: "echo", Description: "Echo.", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`), ReadOnly: true},
		{Name: "fail", Description: "Fail.", InputSchema: json.RawMessage(`{"type":"object"}`), Destructive: true},
	}
}

func (f *Fake) Instructions() string { return "Use echo." }

func (f *Fake) OpenSession(id string) engine.Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, id)
	s := &Session{eng: f, id: id}
	f.sessions[id] = s
	return s
}

func (f *Fake) Call(_ context.Context, sess engine.Session, tool string, args json.RawMessage) tools.Result {
	f.mu.Lock()
	c := Call{Tool: tool, Args: string(args)}
	if s, ok := sess.(*Session); ok && s != nil {
		c.Session, c.Cwd, c.Model = s.id, s.cwd, s.model
	}
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	switch tool {
	case "echo":
		return tools.Result{Content: []tools.Content{tools.TextContent("a"), tools.ImageContent("image/png", "AAE="), tools.TextContent("b")},
			Value: args, Meta: json.RawMessage(`{"m":1}`)} // pre-encoded values pass through
	case "empty": // an empty text block (a plugin tool may render one)
		return tools.Result{Content: []tools.Content{tools.TextContent(""), tools.TextContent("x")}, Value: json.RawMessage(`{}`)}
	case "fail":
		return tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: boom")},
			Error: &tools.ErrorInfo{Message: "boom", Code: "FS_BOOM", Name: "FsError"}}
	default:
		return tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: unknown tool " + tool)},
			Error: &tools.ErrorInfo{Message: "unknown tool " + tool}}
	}
}
