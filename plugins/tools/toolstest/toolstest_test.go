package toolstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

// cwdTool answers the cwd and model of the session it runs in.
var cwdTool = tools.Tool[struct{}, string]{
	Name: "where",
	Execute: func(_ context.Context, _ struct{}, e *tools.Exec) (string, error) {
		return e.Header().Cwd + " " + e.Header().Model, nil
	},
	Render: func(_ struct{}, v string) []tools.Content { return []tools.Content{tools.TextContent(v)} },
}.Definition()

func ask(*tools.Exec) tools.Decision { return tools.Decision{Kind: tools.Ask, Reason: "why"} }

func TestEnvRunsCallsInItsSession(t *testing.T) {
	e := toolstest.New(t, toolstest.WithTools(cwdTool), toolstest.WithHeader(tools.Header{Cwd: "/w", Model: "m"}))
	assert.Equal(t, "s1", e.Session.ID())
	assert.Equal(t, "/w m", e.Call("where", json.RawMessage(`{}`)).Text())
	assert.Equal(t, " ", e.CallIn(nil, "where", json.RawMessage(`{}`)).Text(), "no session: the zero header")
	other := toolstest.Session("s2", tools.Header{Cwd: "/o"})
	assert.Equal(t, "/o ", e.CallIn(other, "where", json.RawMessage(`{}`)).Text())
	kerneltest.RequireActive(t, e.Fiber)
	assert.Same(t, e.Runtime, tools.Service.Must(e.Root))
}

// Each outcome of the fake approvers reaches the model as the runtime words it, and the approver
// records the request of each call (ids in sequence) with its context.
func TestApproversAnswerAndRecord(t *testing.T) {
	boom := errors.New("channel broke")
	for _, tc := range []struct {
		approver *toolstest.Approver
		text     string
	}{
		{toolstest.AllowOnce(), "/w "},
		{toolstest.Reject(), `Error: the user rejected tool "where"`},
		{toolstest.Cancel(), `Error: approval for tool "where" was cancelled`},
		{toolstest.Unavailable(), `Error: tool "where" requires approval, but no approval channel is available`},
		{toolstest.Failing(boom), "Error: channel broke"},
		{toolstest.Answering(func(context.Context, tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
			return tools.AllowedOnce, nil
		}), "/w "},
		{&toolstest.Approver{}, `Error: unknown approval outcome ""`},
	} {
		e := toolstest.New(t, toolstest.WithTools(cwdTool), toolstest.With(toolstest.Decide("ask", ask), nil),
			toolstest.WithApprover(tc.approver), toolstest.WithHeader(tools.Header{Cwd: "/w"}))
		type key struct{}
		ctx := context.WithValue(context.Background(), key{}, "mine")
		e.Call("where", json.RawMessage(`{}`))
		res := e.Execute(ctx, tools.Call{Name: "where", Args: json.RawMessage(`{}`), Session: e.Session})
		assert.Equal(t, tc.text, res.Text())
		assert.Equal(t, []tools.ApprovalRequest{
			{Session: e.Session, ToolName: "where", CallID: "call-1", Reason: "why"},
			{Session: e.Session, ToolName: "where", CallID: "call-2", Reason: "why"},
		}, tc.approver.Requests())
		require.Len(t, tc.approver.Contexts(), 2)
		assert.Equal(t, "mine", tc.approver.Contexts()[1].Value(key{}))
	}
}

func TestCatalog(t *testing.T) {
	c := toolstest.Catalog{Default: "d", Models: map[string]tools.ModelInfo{"v": {ID: "v", InputModalities: []string{"image"}}}}
	e := toolstest.New(t, toolstest.WithModels(c))
	got, ok := tools.Models.Get(e.Root)
	require.True(t, ok)
	assert.Equal(t, "d", tools.ModelFor(&tools.Exec{Session: e.Session}, got))
	info, err := got.ResolveModel(context.Background(), "v")
	require.NoError(t, err)
	assert.True(t, info.AcceptsImages())
	info, err = got.ResolveModel(context.Background(), "unknown")
	require.NoError(t, err)
	assert.Equal(t, tools.ModelInfo{ID: "unknown"}, info)
	_, err = toolstest.Catalog{Err: errors.New("down")}.ResolveModel(context.Background(), "v")
	assert.EqualError(t, err, "down")
}

// A plugin that needs a service is active once a later option provides it.
func TestNewWaitsForLaterProviders(t *testing.T) {
	svc := kernel.NewService[string]("toolstest-later")
	var got string
	needs := kernel.Define("needs-later", func(kc *kernel.Context, _ struct{}) error { got = svc.Must(kc); return nil }, svc.Dep())
	provides := kernel.Define("provides-later", func(kc *kernel.Context, _ struct{}) error {
		_, err := svc.Provide(kc, "here")
		return err
	})
	toolstest.New(t, toolstest.With(needs, nil), toolstest.With(provides, nil))
	assert.Equal(t, "here", got)
}

// Register adds tools through a plugin whose disposal removes them.
func TestRegisterAndDispose(t *testing.T) {
	e := toolstest.New(t)
	f := e.Register(t, cwdTool)
	assert.False(t, e.Call("where", json.RawMessage(`{}`)).IsError)
	kerneltest.RequireDispose(t, f)
	assert.Equal(t, `Error: unknown tool "where"`, e.Call("where", json.RawMessage(`{}`)).Text())
}

// A module that needs a service nobody provides stays pending, and New fails the test naming it.
func TestNewRequiresActivePlugins(t *testing.T) {
	missing := kernel.NewService[int]("toolstest-missing")
	pending := kernel.Define("needs-missing", func(*kernel.Context, struct{}) error { return nil }, missing.Dep())
	ft := &fatalT{TB: t}
	func() {
		defer func() { _ = recover() }()
		toolstest.New(ft, toolstest.With(pending, nil))
	}()
	require.Len(t, ft.failures, 1)
	assert.Contains(t, ft.failures[0], "(needs-missing) is pending, want active")
}

// fatalT records a fatal failure and stops the helper.
type fatalT struct {
	testing.TB
	failures []string
}

func (f *fatalT) Helper() {}

func (f *fatalT) Fatalf(format string, args ...any) {
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
	panic(f)
}
