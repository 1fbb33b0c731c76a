package toolstest

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Env is a kernel bound to a test with the tools runtime and the plugins New was given, all
// active, and an agent session to call tools in.
type Env struct {
	// Root is the kernel's root context; Runtime the tools runtime, loaded first as Fiber.
	Root    *kernel.Context
	Runtime *tools.Runtime
	Fiber   *kernel.Fiber
	// Logs holds what the kernel and the plugins logged at Warn and above.
	Logs *observer.ObservedLogs
	// Session is the agent session Call uses: "s1", with the header of WithHeader.
	Session *tools.Session

	calls atomic.Int64
}

// Option adds to what New composes.
type Option func(*setup)

type setup struct {
	plugins []plugin
	header  tools.Header
}

type plugin struct {
	m   kernel.Module
	cfg any
}

// With loads m with cfg, after the runtime and the plugins of earlier options (composition order:
// the first registered decider of a single-slot event wins).
func With(m kernel.Module, cfg any) Option {
	return func(s *setup) { s.plugins = append(s.plugins, plugin{m, cfg}) }
}

// WithTools registers defs through a plugin of their own ("toolstest-tools").
func WithTools(defs ...tools.Definition) Option { return With(Tools("toolstest-tools", defs...), nil) }

// WithApprover provides a as the approval service ("toolstest-approval").
func WithApprover(a tools.Approver) Option {
	return With(ProvideApproval("toolstest-approval", a), nil)
}

// WithModels provides c as the model catalog ("toolstest-models").
func WithModels(c tools.ModelCatalog) Option { return With(ProvideModels("toolstest-models", c), nil) }

// WithHeader sets the header of Env.Session.
func WithHeader(h tools.Header) Option { return func(s *setup) { s.header = h } }

// New composes a kernel bound to t (closed when the test ends): the tools runtime, then every
// plugin of opts in order; once all are loaded, each must be active (a plugin may wait for a
// service one loaded after it provides).
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	var s setup
	for _, o := range opts {
		o(&s)
	}
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	e := &Env{Root: root, Logs: logs, Session: Session("s1", s.header)}
	e.Fiber = e.Load(t, tools.Plugin, nil)
	rt, ok := tools.Service.Get(root)
	if !ok {
		t.Fatal("toolstest: the tools runtime provides no service")
	}
	e.Runtime = rt
	fibers := make([]*kernel.Fiber, len(s.plugins))
	for i, p := range s.plugins {
		fibers[i] = kerneltest.RequireLoad(t, root, p.m, p.cfg)
	}
	for _, f := range fibers {
		kerneltest.RequireActive(t, f)
	}
	return e
}

// Load loads m with cfg under the root and requires it to be active.
func (e *Env) Load(t testing.TB, m kernel.Module, cfg any) *kernel.Fiber {
	t.Helper()
	f := kerneltest.RequireLoad(t, e.Root, m, cfg)
	kerneltest.RequireActive(t, f)
	return f
}

// Register registers defs through a plugin of their own and returns its fiber (dispose it to
// remove them).
func (e *Env) Register(t testing.TB, defs ...tools.Definition) *kernel.Fiber {
	t.Helper()
	return e.Load(t, Tools("toolstest-tools", defs...), nil)
}

// Call runs the tool name with args in Env.Session.
func (e *Env) Call(name string, args any) tools.Result { return e.CallIn(e.Session, name, args) }

// CallIn runs the tool name with args in session s (nil: a call with no agent session).
func (e *Env) CallIn(s *tools.Session, name string, args any) tools.Result {
	return e.Execute(context.Background(), tools.Call{Name: name, Args: args, Session: s})
}

// Execute runs call under ctx; an empty CallID becomes the next of "call-1", "call-2", ...
func (e *Env) Execute(ctx context.Context, call tools.Call) tools.Result {
	if call.CallID == "" {
		call.CallID = e.NextCallID()
	}
	return e.Runtime.Execute(ctx, call)
}

// NextCallID takes the next id of the sequence Execute gives calls without one.
func (e *Env) NextCallID() string { return "call-" + strconv.FormatInt(e.calls.Add(1), 10) }
