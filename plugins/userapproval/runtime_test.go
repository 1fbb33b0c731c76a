package userapproval_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

var guarded = tools.Tool[json.RawMessage, string]{
	Name:    "guarded",
	Execute: func(context.Context, json.RawMessage, *tools.Exec) (string, error) { return "ran", nil },
	Render:  func(json.RawMessage, string) []tools.Content { return []tools.Content{tools.TextContent("ran")} },
}.Definition()

// Through the tools runtime, a call the pre-execute policy sends to approval is answered by
// user-approval's answerers: allow-once runs the tool, a rejection is the runtime's refusal; under
// the never policy no answerer is asked and the call is rejected.
func TestAnswersReachToolCalls(t *testing.T) {
	for _, tc := range []struct {
		policy userapproval.Policy
		answer tools.ApprovalOutcome
		text   string
		asked  bool
	}{
		{userapproval.PolicyAsk, tools.AllowedOnce, "ran", true},
		{userapproval.PolicyAsk, tools.Rejected, `Error: the user rejected tool "guarded"`, true},
		{userapproval.PolicyNever, tools.AllowedOnce, `Error: the user rejected tool "guarded"`, false},
	} {
		e := toolstest.New(t, toolstest.WithTools(guarded),
			toolstest.With(toolstest.Decide("ask", func(*tools.Exec) tools.Decision { return tools.Decision{Kind: tools.Ask, Reason: "why"} }), nil),
			toolstest.With(userapproval.Plugin, userapproval.Config{Policy: tc.policy}))
		h := &harness{kc: e.Root}
		var seen []*userapproval.Request
		h.answer(t, func(_ context.Context, req *userapproval.Request, _ func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
			seen = append(seen, req)
			return tc.answer, nil
		})
		res := e.Call("guarded", json.RawMessage(`{}`))
		assert.Equal(t, tc.text, res.Text(), tc.policy)
		if !tc.asked {
			assert.Empty(t, seen)
			continue
		}
		require.Len(t, seen, 1)
		assert.Same(t, e.Session, seen[0].Session)
		assert.Equal(t, []string{"guarded", "call-1", "why"}, []string{seen[0].ToolName, seen[0].CallID, seen[0].Reason})
	}
}
