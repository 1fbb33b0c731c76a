package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ErrNoRuntime is returned when the composition has no tools runtime.
var ErrNoRuntime = errors.New(`the composition provides no tools runtime (add the "tools" plugin)`)

// Tools adapts the tools runtime of a composed kernel. The runtime is looked up on every use, so a
// reloaded "tools" plugin is picked up.
type Tools struct {
	root  *kernel.Context
	seq   *atomic.Uint64
	sends Sends
}

var _ Engine = (*Tools)(nil)

// New adapts the tools runtime of the kernel context root (its root context); it fails with
// ErrNoRuntime when root provides none.
func New(root *kernel.Context) (*Tools, error) {
	if _, ok := tools.Service.Get(root); !ok {
		return nil, ErrNoRuntime
	}
	return &Tools{root: root, seq: new(atomic.Uint64)}, nil
}

// Runtime returns the tools runtime, or nil once it is gone.
func (e *Tools) Runtime() *tools.Runtime {
	rt, _ := tools.Service.Get(e.root)
	return rt
}

// Sends is what a front end sends of a result besides its content blocks.
type Sends uint8

const (
	SendAll     Sends = iota // the value and the presentation meta (run)
	SendValue                // the value, no meta (serve --structured-content)
	SendContent              // the content blocks only (serve)
)

// Sending returns eng with its calls building only what s sends when it is a *Tools; any other
// engine (a test fake) is returned as is.
func Sending(eng Engine, s Sends) Engine {
	if te, ok := eng.(*Tools); ok && te != nil {
		c := *te
		c.sends = s
		return &c
	}
	return eng
}

// Tools lists the visible tool definitions; a tool without parameters gets an empty object schema.
func (e *Tools) Tools() []ToolInfo {
	rt := e.Runtime()
	if rt == nil {
		return nil
	}
	defs := rt.List()
	out := make([]ToolInfo, len(defs))
	for i, d := range defs {
		params := d.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out[i] = ToolInfo{
			Name: d.Name, Description: d.Description, InputSchema: params, OutputSchema: d.OutputSchema,
			Title: d.Annotations.Title, ReadOnly: d.Annotations.ReadOnly, Destructive: d.Annotations.Destructive,
			Idempotent: d.Annotations.Idempotent, OpenWorld: d.Annotations.OpenWorld,
		}
	}
	return out
}

// Instructions is the guidance of the visible tools, followed by the standing-policy statements
// the plugins contribute (tools.Instructions) for a session in the host's working directory: MCP
// has no per-request context, so the server instructions carry them.
func (e *Tools) Instructions() string {
	rt := e.Runtime()
	if rt == nil {
		return ""
	}
	parts := append([]string{rt.Guidance()}, tools.InstructionsFor(context.Background(), e.root, tools.NewSession("instructions"))...)
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "\n\n")
}

// WatchTools calls fn (asynchronously, in order) after each tools/change event of the kernel, until
// stop is called.
func (e *Tools) WatchTools(fn func()) (stop func()) {
	d, err := tools.Change.On(e.root, func(context.Context, struct{}) error {
		fn()
		return nil
	}, kernel.Async())
	if err != nil {
		return func() {}
	}
	return func() { _ = d() }
}

// OpenSession starts a tools.Session.
func (e *Tools) OpenSession(id string) Session {
	return &toolsSession{eng: e, s: tools.NewSession(id)}
}

// Call executes one call; what the front end sends decides what the runtime builds
// (tools.Call.SkipMeta) and what the result keeps.
func (e *Tools) Call(ctx context.Context, sess Session, tool string, args json.RawMessage) tools.Result {
	rt := e.Runtime()
	if rt == nil {
		return tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: " + ErrNoRuntime.Error())}}
	}
	call := tools.Call{CallID: "call_" + strconv.FormatUint(e.seq.Add(1), 10), Name: tool, Args: args,
		SkipMeta: e.sends != SendAll, SkipValue: e.sends == SendContent}
	if ts, ok := sess.(*toolsSession); ok && ts != nil {
		call.Session = ts.s
	}
	r := rt.Execute(ctx, call)
	if e.sends == SendContent || r.IsError {
		r.Value = nil
	}
	if r.IsError {
		r.Meta = nil
	}
	return r
}

// toolsSession is a tools.Session owned by a front end.
type toolsSession struct {
	eng *Tools
	s   *tools.Session
}

func (t *toolsSession) SetHeader(cwd, model *string) {
	t.s.UpdateHeader(func(h *tools.Header) {
		if cwd != nil {
			h.Cwd = *cwd
		}
		if model != nil {
			h.Model = *model
		}
	})
}

func (t *toolsSession) End() {
	if rt := t.eng.Runtime(); rt != nil {
		rt.EndSession(context.Background(), t.s)
	}
}

// SetClient sets the header's client name and version, taking the write lock only on a change.
func (t *toolsSession) SetClient(name, version string) {
	if h := t.s.Header(); h.Client == name && h.ClientVersion == version {
		return
	}
	t.s.UpdateHeader(func(h *tools.Header) { h.Client, h.ClientVersion = name, version })
}

// Exposes reports whether the session, with its header as it is now, sees tool name.
func (t *toolsSession) Exposes(name string) bool {
	rt := t.eng.Runtime()
	return rt == nil || rt.Exposed(t.s.Header(), name)
}

// SetDurableOwner keeps the session's observations under key where the composition has a durable
// observation store (fs-history).
func (t *toolsSession) SetDurableOwner(key string) { t.s.SetDurableOwner(key) }

// SessionOf is the tools.Session of a session this package opened, nil for another engine's.
func SessionOf(s Session) *tools.Session {
	if ts, ok := s.(*toolsSession); ok {
		return ts.s
	}
	return nil
}
