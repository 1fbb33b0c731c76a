package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/cordon-dev/cordon/internal/argcheck"
	"github.com/cordon-dev/cordon/kernel"
	"go.uber.org/zap"
)

// emptyParameters is the schema of a tool that declares no Parameters.
var emptyParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// entry is one live registration.
type entry struct {
	def    Definition
	params *argcheck.Schema
	seq    uint64
}

// guardEntry is one live monotonic guard.
type guardEntry struct {
	fn  func(*Exec) string
	seq uint64
}

// Runtime is the tool registry and execution pipeline (the ctx.tools seam).
// It is safe for concurrent use.
type Runtime struct {
	expose []ExposeRule // Config.Expose: which tools each session sees (expose.go)
	kc     *kernel.Context
	log    *zap.Logger

	mu     sync.RWMutex
	tools  map[string]*entry
	guards []*guardEntry
	seq    uint64
}

// NewRuntime returns a runtime that dispatches its events through kc. The
// "tools" plugin calls it; hosts and tests normally load Plugin instead.
func NewRuntime(kc *kernel.Context) *Runtime {
	return &Runtime{kc: kc, log: kc.Logger(), tools: map[string]*entry{}}
}

// Register adds def as an effect of the registering plugin's context kc:
// disposing that plugin (or calling the returned Disposer) removes the tool.
// It fails for an empty name, a missing Execute or Render, a
// schema outside the supported subset (UNSUPPORTED_SCHEMA), and a name that is
// already registered.
func (r *Runtime) Register(kc *kernel.Context, def Definition) (kernel.Disposer, error) {
	if def.Name == "" {
		return nil, errors.New("tool name must be a non-empty string")
	}
	execute, render := false, false
	if def.body != nil {
		execute, render = def.body.complete()
	}
	if !execute {
		return nil, errors.New("tool " + quote(def.Name) + " must declare execute")
	}
	if !render {
		return nil, errors.New("tool " + quote(def.Name) + " must declare output { schema, render, presentationMeta? }")
	}
	if def.Timeout < 0 {
		return nil, errors.New("tool " + quote(def.Name) + " timeoutMs must be a positive finite number")
	}
	if def.Parameters == nil {
		def.Parameters = emptyParameters
	}
	params, err := argcheck.Compile(def.Parameters, true)
	if err != nil {
		return nil, newSchemaError(err)
	}
	def.Parameters = slices.Clone(def.Parameters)
	def.OutputSchema = slices.Clone(def.OutputSchema)
	return kc.Effect("tools.register("+def.Name+")", func() (kernel.Disposer, error) {
		r.mu.Lock()
		if _, dup := r.tools[def.Name]; dup {
			r.mu.Unlock()
			return nil, errors.New("tool " + quote(def.Name) + " is already registered")
		}
		r.seq++
		e := &entry{def: def, params: params, seq: r.seq}
		r.tools[def.Name] = e
		r.mu.Unlock()
		r.changed()
		var once sync.Once
		return func() error {
			once.Do(func() {
				r.mu.Lock()
				if r.tools[def.Name] == e {
					delete(r.tools, def.Name)
				}
				r.mu.Unlock()
				r.changed()
			})
			return nil
		}, nil
	})
}

// Guard registers a monotonic deny-only check, as an effect of kc, that runs
// after tools/pre-execute allowed a call and before dispatch. A non-empty
// return denies the call with that reason; no guard can re-allow a call.
func (r *Runtime) Guard(kc *kernel.Context, fn func(exec *Exec) string) (kernel.Disposer, error) {
	if fn == nil {
		return nil, errors.New("tools.Guard: nil guard")
	}
	return kc.Effect("tools.guard()", func() (kernel.Disposer, error) {
		r.mu.Lock()
		r.seq++
		g := &guardEntry{fn: fn, seq: r.seq}
		r.guards = append(r.guards, g)
		r.mu.Unlock()
		return func() error {
			r.mu.Lock()
			r.guards = slices.DeleteFunc(r.guards, func(x *guardEntry) bool { return x == g })
			r.mu.Unlock()
			return nil
		}, nil
	})
}

func (r *Runtime) changed() {
	if r.kc.Active() {
		Change.EmitContained(context.Background(), r.kc, struct{}{})
	}
}

func (r *Runtime) lookup(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.tools[name]
}

// entries returns the live registrations in registration order.
func (r *Runtime) entries() []*entry {
	r.mu.RLock()
	out := make([]*entry, 0, len(r.tools))
	for _, e := range r.tools {
		out = append(out, e)
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b *entry) int { return int(a.seq) - int(b.seq) })
	return out
}

// Get returns the definition registered under name.
func (r *Runtime) Get(name string) (Definition, bool) {
	e := r.lookup(name)
	if e == nil {
		return Definition{}, false
	}
	return e.def, true
}

// List returns every registered definition in registration order.
func (r *Runtime) List() []Definition {
	es := r.entries()
	out := make([]Definition, len(es))
	for i, e := range es {
		out[i] = e.def
	}
	return out
}

// Schemas returns the model-facing schemas in registration order. The
// parameter schemas are copies.
func (r *Runtime) Schemas() []Schema {
	es := r.entries()
	out := make([]Schema, len(es))
	for i, e := range es {
		out[i] = Schema{Name: e.def.Name, Description: e.def.Description, Parameters: slices.Clone(e.def.Parameters)}
	}
	return out
}

// GuidanceSections renders the guidance of the registered tools, in ascending
// Order then name; empty sections are dropped. Only registered tools are
// visible, so a section renders only while its tool is registered.
func (r *Runtime) GuidanceSections() []GuidanceSection {
	es := r.entries()
	visible := map[string]bool{}
	for _, e := range es {
		visible[e.def.Name] = true
	}
	isVisible := func(name string) bool { return visible[name] }
	var out []GuidanceSection
	for _, e := range es {
		g := e.def.Guidance
		if g == nil || g.Text == nil {
			continue
		}
		text, ok := r.renderGuidance(e.def.Name, g, isVisible)
		if !ok || text == "" {
			continue
		}
		out = append(out, GuidanceSection{Name: "tool:" + e.def.Name, Order: g.Order, Text: text})
	}
	slices.SortStableFunc(out, func(a, b GuidanceSection) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

func (r *Runtime) renderGuidance(name string, g *Guidance, visible func(string) bool) (text string, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Warn("tool guidance panicked", zap.String("tool", name), zap.Any("panic", p))
			ok = false
		}
	}()
	return g.Text(visible), true
}

// Guidance returns the rendered guidance sections joined by a blank line
// (what the MCP host sends as server instructions).
func (r *Runtime) Guidance() string {
	sections := r.GuidanceSections()
	texts := make([]string, len(sections))
	for i, s := range sections {
		texts[i] = s.Text
	}
	return strings.Join(texts, "\n\n")
}

// ConcurrencySafe reports whether a call of name with args may overlap sibling calls: only when
// the tool exists, args are valid JSON satisfying its parameter schema, and its ConcurrencySafe
// returns true (a panic counts as false).
func (r *Runtime) ConcurrencySafe(name string, args json.RawMessage) (safe bool) {
	e := r.lookup(name)
	if e == nil {
		return false
	}
	declared := e.def.body.concurrencySafe()
	if declared == nil {
		return false
	}
	v, err := argcheck.Parse(args)
	if err != nil {
		return false
	}
	violations, coerced, cv := e.params.CheckAsSent(v)
	if len(violations) > 0 {
		return false
	}
	if coerced != nil {
		args, v = coerced, cv
	}
	in, err := e.def.body.decode(args, v)
	if err != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return declared(in)
}

// EndSession tells policies that s ended (tools/session-ended, contained) so
// they drop the state they keep for it. Calling it twice is harmless.
func (r *Runtime) EndSession(ctx context.Context, s *Session) {
	if s == nil {
		return
	}
	SessionEnded.EmitContained(ctx, r.kc, s)
}
