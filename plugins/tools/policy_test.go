package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

func (e *env) provideApprover(t *testing.T, a tools.Approver) {
	t.Helper()
	e.kit.Load(t, toolstest.ProvideApproval("test-approval", a), nil)
}

func (e *env) decide(t *testing.T, d tools.Decision) {
	t.Helper()
	e.kit.Load(t, toolstest.Decide("test-decider", func(*tools.Exec) tools.Decision { return d }), nil)
}

// countingTool counts body runs.
func countingTool(n *int) tools.Definition {
	return tool("t", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { *n++; return "ran", nil })
}

func TestPreExecuteDeny(t *testing.T) {
	e := newEnv(t)
	runs := 0
	e.load(t, countingTool(&runs))
	e.decide(t, tools.Decision{Kind: tools.Deny, Reason: "writes are frozen"})
	var post *tools.Result
	_, err := tools.PostExecute.On(e.root, func(_ context.Context, p tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		post = &p.Result
		return next()
	})
	require.NoError(t, err)
	res := e.exec("t", json.RawMessage(`{}`))
	require.Equal(t, tools.Result{
		Content: []tools.Content{tools.TextContent("Error: writes are frozen")},
		IsError: true,
		Error:   &tools.ErrorInfo{Message: "writes are frozen"},
	}, res)
	require.Zero(t, runs)
	require.NotNil(t, post, "a denial still reaches post-execute")
}

func TestPreExecuteListenerErrorIsFinal(t *testing.T) {
	e := newEnv(t)
	runs := 0
	e.load(t, countingTool(&runs))
	_, err := tools.PreExecute.Decide(e.root, func(context.Context, *tools.Exec) (tools.Decision, error) {
		return tools.Decision{}, tools.NewError("", "POLICY_BROKEN", "policy failed", nil)
	})
	require.NoError(t, err)
	res := e.exec("t", json.RawMessage(`{}`))
	require.Equal(t, &tools.ErrorInfo{Message: "policy failed", Name: "HarnessError", Code: "POLICY_BROKEN"}, res.Error)
	require.Zero(t, runs)
}

func TestPreExecuteAsk(t *testing.T) {
	session := tools.NewSession("s1")
	cases := []struct {
		name     string
		approver *toolstest.Approver // nil: no approval service
		reason   string
		session  *tools.Session
		want     string // "" = the body ran
	}{
		{"no approval service", nil, "", session, `tool "t" requires approval (not yet supported)`},
		{"no approval service keeps the ask reason", nil, "needs a human", session, "needs a human"},
		{"no session", &toolstest.Approver{Outcome: tools.AllowedOnce}, "", nil, `tool "t" requires approval, but the call has no agent to route it through`},
		{"allowed once", &toolstest.Approver{Outcome: tools.AllowedOnce}, "why", session, ""},
		{"rejected", &toolstest.Approver{Outcome: tools.Rejected}, "", session, `the user rejected tool "t"`},
		{"cancelled", &toolstest.Approver{Outcome: tools.Cancelled}, "", session, `approval for tool "t" was cancelled`},
		{"unavailable", &toolstest.Approver{Outcome: tools.Unavailable}, "", session, `tool "t" requires approval, but no approval channel is available`},
		{"unknown outcome", &toolstest.Approver{Outcome: "maybe"}, "", session, `unknown approval outcome "maybe"`},
		{"approver error", &toolstest.Approver{Err: errors.New("approval.request() outside an open turn")}, "", session, "approval.request() outside an open turn"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			runs := 0
			e.load(t, countingTool(&runs))
			if tc.approver != nil {
				e.provideApprover(t, tc.approver)
			}
			e.decide(t, tools.Decision{Kind: tools.Ask, Reason: tc.reason})
			res := e.rt.Execute(context.Background(), tools.Call{CallID: "c7", Name: "t", Args: json.RawMessage(`{}`), Session: tc.session})
			if tc.want == "" {
				require.False(t, res.IsError, res.Text())
				require.Equal(t, 1, runs)
				require.Equal(t, []tools.ApprovalRequest{{Session: session, ToolName: "t", CallID: "c7", Reason: "why"}}, tc.approver.Requests())
				return
			}
			require.Equal(t, "Error: "+tc.want, res.Text())
			require.False(t, res.Error.HasCode())
			require.Zero(t, runs)
		})
	}
}

func TestGuardDenialCannotBeOverruled(t *testing.T) {
	e := newEnv(t)
	runs := 0
	e.load(t, countingTool(&runs))
	dispose, err := e.rt.Guard(e.root, func(x *tools.Exec) string {
		if x.Name == "t" {
			return "guarded"
		}
		return ""
	})
	require.NoError(t, err)
	e.decide(t, tools.Decision{Kind: tools.Allow})
	require.Equal(t, "Error: guarded", e.exec("t", json.RawMessage(`{}`)).Text())
	require.Zero(t, runs)

	require.NoError(t, dispose())
	require.False(t, e.exec("t", json.RawMessage(`{}`)).IsError)
	require.Equal(t, 1, runs)
}

func TestPostExecuteDecisions(t *testing.T) {
	type textValue struct {
		Text string `json:"text"`
	}
	def := func() tools.Definition {
		return tools.Tool[json.RawMessage, textValue]{
			Name:    "t",
			Execute: func(context.Context, json.RawMessage, *tools.Exec) (textValue, error) { return textValue{"body"}, nil },
			Render: func(_ json.RawMessage, v textValue) []tools.Content {
				b, _ := json.Marshal(v)
				return []tools.Content{tools.TextContent("render:" + string(b))}
			},
			PresentationMeta: func(_ json.RawMessage, v textValue) any { return v },
		}.Definition()
	}
	cases := []struct {
		name     string
		decision tools.PostDecision
		check    func(t *testing.T, res tools.Result)
	}{
		{"accept keeps the result", tools.PostDecision{}, func(t *testing.T, res tools.Result) {
			require.Equal(t, `render:{"text":"body"}`, res.Text())
		}},
		{"content replacement keeps value and meta", tools.PostDecision{Kind: tools.Accept, Content: []tools.Content{tools.TextContent("policy content")}}, func(t *testing.T, res tools.Result) {
			require.Equal(t, "policy content", res.Text())
			require.Equal(t, textValue{"body"}, res.Value)
			require.Equal(t, textValue{"body"}, res.Meta)
		}},
		{"value replacement re-renders", tools.PostDecision{Kind: tools.Accept, ReplaceValue: true, Value: textValue{"policy"}}, func(t *testing.T, res tools.Result) {
			require.Equal(t, `render:{"text":"policy"}`, res.Text())
			require.Equal(t, textValue{"policy"}, res.Meta)
		}},
		{"replacement value of another type", tools.PostDecision{Kind: tools.Accept, ReplaceValue: true, Value: map[string]any{"text": 1}}, func(t *testing.T, res tools.Result) {
			require.Equal(t, `Error: tool "t" returned invalid output: the value is a map[string]interface {}, not the tool's tools_test.textValue`, res.Text())
		}},
		{"both replacements", tools.PostDecision{Kind: tools.Accept, ReplaceValue: true, Value: "x", Content: []tools.Content{}}, func(t *testing.T, res tools.Result) {
			require.Equal(t, "Error: tools/post-execute accept decision cannot replace both value and content", res.Text())
		}},
		{"block", tools.PostDecision{Kind: tools.Block, Feedback: []tools.Content{tools.TextContent("line one"), tools.ImageContent("image/png", "AA==")}}, func(t *testing.T, res tools.Result) {
			require.True(t, res.IsError)
			require.Equal(t, []tools.Content{tools.TextContent("line one"), tools.ImageContent("image/png", "AA==")}, res.Content)
			require.Equal(t, &tools.ErrorInfo{Message: "line one\n[image content]"}, res.Error)
			require.Nil(t, res.Value)
		}},
		{"content of an unknown type", tools.PostDecision{Kind: tools.Accept, Content: []tools.Content{{Type: "audio"}}}, func(t *testing.T, res tools.Result) {
			require.Equal(t, "Error: tool result must be losslessly JSON-serializable", res.Text())
		}},
		{"block without feedback", tools.PostDecision{Kind: tools.Block}, func(t *testing.T, res tools.Result) {
			require.Equal(t, "tool result blocked by post-execute policy", res.Error.Message)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.load(t, def())
			_, err := tools.PostExecute.Decide(e.root, func(context.Context, tools.PostArgs) (tools.PostDecision, error) { return tc.decision, nil })
			require.NoError(t, err)
			tc.check(t, e.exec("t", json.RawMessage(`{}`)))
		})
	}
}

func TestPostExecuteCannotReplaceValueOfFailure(t *testing.T) {
	e := newEnv(t)
	e.load(t, tool("t", func(context.Context, json.RawMessage, *tools.Exec) (any, error) {
		return nil, errors.New("body failed")
	}))
	_, err := tools.PostExecute.Decide(e.root, func(context.Context, tools.PostArgs) (tools.PostDecision, error) {
		return tools.PostDecision{Kind: tools.Accept, ReplaceValue: true, Value: "x"}, nil
	})
	require.NoError(t, err)
	require.Equal(t, "Error: tools/post-execute cannot replace the value of a failed result", e.exec("t", json.RawMessage(`{}`)).Text())
}

func TestAskCancelledByTheCallerIsAbortedBeforeDispatch(t *testing.T) {
	e := newEnv(t)
	runs := 0
	e.load(t, countingTool(&runs))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.provideApprover(t, toolstest.Answering(func(context.Context, tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
		cancel()
		return tools.Cancelled, nil
	}))
	e.decide(t, tools.Decision{Kind: tools.Ask})
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`), Session: tools.NewSession("s")})
	require.Equal(t, "ABORTED_BEFORE_DISPATCH", res.Code())
	require.Zero(t, runs)
}
