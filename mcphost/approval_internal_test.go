package mcphost

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
)

const guardedComposition = "plugins:\n  - name: tools\n  - name: test-guarded\n  - name: test-ask\n"

func composeGuarded(t *testing.T) *host {
	t.Helper()
	h := composeYAML(t, guardedComposition, nil, kernelfx.Plugin(hosttest.GuardedTool), kernelfx.Plugin(hosttest.AskGuarded))
	t.Cleanup(h.close)
	return h
}

func TestApprovalThroughElicitation(t *testing.T) {
	tests := []struct {
		name    string
		handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
		isError bool
		text    string
	}{
		{"allow once", func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Message != `Allow the "guarded" tool call? it is guarded` {
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
		}, false, "ran"},
		{"reject in the form", func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "reject"}}, nil
		}, true, `Error: the user rejected tool "guarded"`},
		{"decline", func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, true, `Error: the user rejected tool "guarded"`},
		{"cancel", func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}, true, `Error: approval for tool "guarded" was cancelled`},
		{"client without elicitation", nil, true, `Error: tool "guarded" requires approval, but no approval channel is available`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := composeGuarded(t)
			eng, err := newToolsEngine(h.k)
			require.NoError(t, err)
			ct, st := mcp.NewInMemoryTransports()
			done := make(chan error, 1)
			go func() { done <- newHost(eng, Config{Version: "test"}).serveConn(context.Background(), st) }()
			c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{ElicitationHandler: tt.handler})
			cs, err := c.Connect(context.Background(), ct, nil)
			require.NoError(t, err)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "guarded"})
			require.NoError(t, err)
			assert.Equal(t, tt.isError, res.IsError)
			require.Len(t, res.Content, 1)
			assert.Equal(t, tt.text, res.Content[0].(*mcp.TextContent).Text)
			require.NoError(t, cs.Close())
			<-done
		})
	}
}
