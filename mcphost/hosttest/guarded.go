package hosttest

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// GuardedTool is a plugin "test-guarded" with one tool, "guarded", that answers "ran" (value
// {"ran": true}); AskGuarded is a plugin "test-ask" whose pre-execute policy sends every call of
// "guarded" to approval with the reason "it is guarded" and allows the rest. Together they exercise
// a host's approval channel.
var (
	GuardedTool = toolstest.Tools("test-guarded", tools.Tool[json.RawMessage, map[string]any]{
		Name: "guarded", Description: "Needs approval.",
		Execute: func(context.Context, json.RawMessage, *tools.Exec) (map[string]any, error) {
			return map[string]any{"ran": true}, nil
		},
		Render: func(json.RawMessage, map[string]any) []tools.Content {
			return []tools.Content{tools.TextContent("ran")}
		},
	}.Definition())
	AskGuarded = toolstest.Decide("test-ask", func(e *tools.Exec) tools.Decision {
		if e.Name == "guarded" {
			return tools.Decision{Kind: tools.Ask, Reason: "it is guarded"}
		}
		return tools.Decision{Kind: tools.Allow}
	})
)
