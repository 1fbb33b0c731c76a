package app

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// errNoRuntime is returned when the composition has no tools runtime.
var errNoRuntime = errors.New(`the composition provides no tools runtime (add the "tools" plugin)`)

// toolsEngine adapts the tools runtime of a composed kernel to the front ends. The runtime is looked
// up on every use, so a reloaded "tools" plugin is picked up.
type toolsEngine struct {
	root *kernel.Context
	seq  atomic.Uint64
}

var _ engine = (*toolsEngine)(nil)

func newToolsEngine(k *kernel.Kernel) (*toolsEngine, error) {
	if _, ok := tools.Service.Get(k.Root()); !ok {
		return nil, errNoRuntime
	}
	return &toolsEngine{root: k.Root()}, nil
}

func (e *toolsEngine) runtime() *tools.Runtime {
	rt, _ := tools.Service.Get(e.root)
	return rt
}

func (e *toolsEngine) Tools() []toolInfo {
	rt := e.runtime()
	if rt == nil {
		return nil
	}
	defs := rt.List()
	out := make([]toolInfo, len(defs))
	for i, d := range defs {
		params := d.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out[i] = toolInfo{
			Name: d.Name, Description: d.Description, InputSchema: params, OutputSchema: d.OutputSchema,
			Title: d.Annotations.Title, ReadOnly: d.Annotations.ReadOnly, Destructive: d.Annotations.Destructive,
			Idempotent: d.Annotations.Idempotent, OpenWorld: d.Annotations.OpenWorld,
		}
	}
	return out
}

// Instructions is the guidance of the visible tools, followed by the standing-policy statements of a
// composed sandbox-policy (sandbox:policy, order 110) and user-approval (approval:policy, order 115)
// for a session in the host's working directory: MCP has no per-request context, so the server
// instructions carry them.
func (e *toolsEngine) Instructions() string {
	rt := e.runtime()
	if rt == nil {
		return ""
	}
	parts := []string{rt.Guidance()}
	probe := tools.NewSession("instructions")
	if p, ok := sandbox.PolicyService.Get(e.root); ok {
		parts = append(parts, sandboxpolicy.PolicyText(p.Resolve(probe, "")))
	}
	if a, ok := tools.Approval.Get(e.root); ok {
		if ua, ok := a.(*userapproval.Service); ok {
			parts = append(parts, ua.ContextText(probe))
		}
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "\n\n")
}

// WatchTools calls fn (asynchronously, in order) after each tools/change event of the kernel, until
// stop is called.
func (e *toolsEngine) WatchTools(fn func()) (stop func()) {
	d, err := tools.Change.On(e.root, func(context.Context, struct{}) error {
		fn()
		return nil
	}, kernel.Async())
	if err != nil {
		return func() {}
	}
	return func() { _ = d() }
}

func (e *toolsEngine) OpenSession(id string) session {
	return &toolsSession{eng: e, s: tools.NewSession(id)}
}

func (e *toolsEngine) Call(ctx context.Context, sess session, tool string, args json.RawMessage) outcome {
	return e.call(ctx, sess, tool, args, sendAll)
}

// sends is what a front end sends of a result besides its content blocks.
type sends uint8

const (
	sendAll     sends = iota // the value and the presentation meta (run)
	sendValue                // the value, no meta (serve --structured-content)
	sendContent              // the content blocks only (serve)
)

// call executes one tool call; what the front end sends decides what the runtime builds
// (tools.Call.SkipMeta) and what the outcome keeps.
func (e *toolsEngine) call(ctx context.Context, sess session, tool string, args json.RawMessage, s sends) outcome {
	rt := e.runtime()
	if rt == nil {
		text := "Error: " + errNoRuntime.Error()
		return outcome{IsError: true, Content: []block{{Type: "text", Text: text}}}
	}
	call := tools.Call{CallID: "call_" + strconv.FormatUint(e.seq.Add(1), 10), Name: tool, Args: args,
		SkipMeta: s != sendAll}
	if ts, ok := sess.(*toolsSession); ok && ts != nil {
		call.Session = ts.s
	}
	o := fromResult(rt.Execute(ctx, call))
	if s == sendContent {
		o.Value = nil
	}
	return o
}

// sendingEngine is a toolsEngine for a front end that sends less than the run protocol (MCP): its
// calls skip what is never sent.
type sendingEngine struct {
	*toolsEngine
	sends sends
}

var _ engine = sendingEngine{}

func (e sendingEngine) Call(ctx context.Context, sess session, tool string, args json.RawMessage) outcome {
	return e.call(ctx, sess, tool, args, e.sends)
}

// sending returns eng with its calls building only what s sends when it is the tools runtime's
// engine; any other engine (a test fake) is returned as is.
func sending(eng engine, s sends) engine {
	if te, ok := eng.(*toolsEngine); ok && te != nil {
		return sendingEngine{te, s}
	}
	return eng
}

// fromResult normalizes a tools.Result.
func fromResult(r tools.Result) outcome {
	o := outcome{IsError: r.IsError, Content: make([]block, len(r.Content))}
	for i, c := range r.Content {
		o.Content[i] = block{Type: c.Type, Text: c.Text, MediaType: c.MediaType, Data: c.Data}
	}
	if r.Error != nil && r.Error.HasCode() {
		o.Code, o.ErrorName = r.Error.Code, r.Error.Name
	}
	if !r.IsError {
		o.Value, o.Meta = r.Value, r.Meta
	}
	return o
}

// toolsSession is a tools.Session owned by a front end.
type toolsSession struct {
	eng *toolsEngine
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
	if rt := t.eng.runtime(); rt != nil {
		rt.EndSession(context.Background(), t.s)
	}
}
