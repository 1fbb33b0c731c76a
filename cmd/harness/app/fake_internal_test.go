package app

import (
	"context"
	"encoding/json"
	"sync"
)

// fakeEngine records calls and answers with canned outcomes: tool "echo" succeeds with its args as the
// value, tool "fail" fails with a coded error,
// tool "empty" renders an empty text block, anything else is unknown.
type fakeEngine struct {
	mu       sync.Mutex
	opened   []string
	ended    []string
	calls    []fakeCall
	sessions map[string]*fakeSession
}

type fakeCall struct {
	Session string // "" for no session
	Tool    string
	Args    string
	Cwd     string
	Model   string
}

type fakeSession struct {
	eng        *fakeEngine
	id         string
	cwd, model string
}

func (s *fakeSession) SetHeader(cwd, model *string) {
	s.eng.mu.Lock()
	defer s.eng.mu.Unlock()
	if cwd != nil {
		s.cwd = *cwd
	}
	if model != nil {
		s.model = *model
	}
}

func (s *fakeSession) End() {
	s.eng.mu.Lock()
	defer s.eng.mu.Unlock()
	s.eng.ended = append(s.eng.ended, s.id)
}

func newFakeEngine() *fakeEngine { return &fakeEngine{sessions: map[string]*fakeSession{}} }

func (f *fakeEngine) Tools() []toolInfo {
	return []toolInfo{
		{Name: "echo", Description: "Echo.", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`), ReadOnly: true},
		{Name: "fail", Description: "Fail.", InputSchema: json.RawMessage(`{"type":"object"}`), Destructive: true},
	}
}

func (f *fakeEngine) Instructions() string { return "Use echo." }

func (f *fakeEngine) OpenSession(id string) session {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, id)
	s := &fakeSession{eng: f, id: id}
	f.sessions[id] = s
	return s
}

func (f *fakeEngine) Call(_ context.Context, sess session, tool string, args json.RawMessage) outcome {
	f.mu.Lock()
	c := fakeCall{Tool: tool, Args: string(args)}
	if s, ok := sess.(*fakeSession); ok && s != nil {
		c.Session, c.Cwd, c.Model = s.id, s.cwd, s.model
	}
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	switch tool {
	case "echo":
		return outcome{Content: []block{{Type: "text", Text: "a"}, {Type: "image", MediaType: "image/png", Data: "AAE="}, {Type: "text", Text: "b"}},
			Value: args, Meta: json.RawMessage(`{"m":1}`)} // pre-encoded values pass through
	case "empty": // an empty text block (a plugin tool may render one)
		return outcome{Content: []block{{Type: "text", Text: ""}, {Type: "text", Text: "x"}}, Value: json.RawMessage(`{}`)}
	case "fail":
		text := "Error: boom"
		return outcome{IsError: true, Content: []block{{Type: "text", Text: text}}, Code: "FS_BOOM", ErrorName: "FsError"}
	default:
		text := "Error: unknown tool " + tool
		return outcome{IsError: true, Content: []block{{Type: "text", Text: text}}}
	}
}
