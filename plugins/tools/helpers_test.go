package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// env is the tools test kit's kernel (the tools runtime loaded and active), under the names these
// tests use.
type env struct {
	kit  *toolstest.Env
	root *kernel.Context
	rt   *tools.Runtime
	logs *observer.ObservedLogs
	f    *kernel.Fiber
}

func newEnv(t *testing.T) *env {
	t.Helper()
	k := toolstest.New(t)
	return &env{kit: k, root: k.Root, rt: k.Runtime, logs: k.Logs, f: k.Fiber}
}

// load registers defs through a plugin of their own and returns its fiber.
func (e *env) load(t *testing.T, defs ...tools.Definition) *kernel.Fiber {
	t.Helper()
	return e.kit.Register(t, defs...)
}

// exec runs a call with no agent session.
func (e *env) exec(name string, args any) tools.Result { return e.kit.CallIn(nil, name, args) }

type echoArgs struct {
	Text string `json:"text"`
}

// echo returns its text argument.
func echo() tools.Definition { return echoTool().Definition() }

// echoTool is echo before it is registered, for tests that adjust it.
func echoTool() tools.Tool[echoArgs, string] {
	return tools.Tool[echoArgs, string]{
		Name:        "echo",
		Description: "echo arguments back",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"what to echo"}},"required":["text"]}`),
		Execute:     func(_ context.Context, a echoArgs, _ *tools.Exec) (string, error) { return a.Text, nil },
		Render:      func(_ echoArgs, v string) []tools.Content { return []tools.Content{tools.TextContent(v)} },
	}
}

// rawTool is a tool that takes its arguments as JSON and returns any JSON value (rendered as its
// encoding); tests adjust it before taking its Definition.
type rawTool = tools.Tool[json.RawMessage, any]

// raw returns a rawTool whose body is fn.
func raw(name string, fn func(ctx context.Context, args json.RawMessage, exec *tools.Exec) (any, error)) rawTool {
	return rawTool{
		Name:    name,
		Execute: fn,
		Render: func(_ json.RawMessage, v any) []tools.Content {
			b, _ := json.Marshal(v)
			return []tools.Content{tools.TextContent(string(b))}
		},
	}
}

// tool returns the Definition of raw(name, fn).
func tool(name string, fn func(ctx context.Context, args json.RawMessage, exec *tools.Exec) (any, error)) tools.Definition {
	return raw(name, fn).Definition()
}

func ok(v any) func(context.Context, json.RawMessage, *tools.Exec) (any, error) {
	return func(context.Context, json.RawMessage, *tools.Exec) (any, error) { return v, nil }
}

// requireRefusedAtSnapshot runs a tool "t" with args and requires the plain
// failure msg with neither a policy (PreExecute) nor the tool's body run.
func requireRefusedAtSnapshot(t *testing.T, args any, msg string) {
	t.Helper()
	e := newEnv(t)
	ran := false
	e.load(t, tool("t", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { ran = true; return "x", nil }))
	pre := 0
	_, err := tools.PreExecute.On(e.root, func(_ context.Context, _ *tools.Exec, next func() (tools.Decision, error)) (tools.Decision, error) {
		pre++
		return next()
	})
	require.NoError(t, err)
	res := e.exec("t", args)
	require.Equal(t, "Error: "+msg, res.Text())
	require.Equal(t, &tools.ErrorInfo{Message: msg}, res.Error, "a plain error")
	require.False(t, ran)
	require.Zero(t, pre, "no policy runs")
}
