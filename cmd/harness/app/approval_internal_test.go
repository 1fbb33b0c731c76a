package app

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// guardedTool registers a tool "guarded" whose calls askGuarded, the pre-execute policy, sends to
// approval.
var (
	guardedTool = toolstest.Tools("test-guarded", tools.Tool[json.RawMessage, map[string]any]{
		Name: "guarded", Description: "Needs approval.",
		Execute: func(context.Context, json.RawMessage, *tools.Exec) (map[string]any, error) {
			return map[string]any{"ran": true}, nil
		},
		Render: func(json.RawMessage, map[string]any) []tools.Content {
			return []tools.Content{tools.TextContent("ran")}
		},
	}.Definition())
	askGuarded = toolstest.Decide("test-ask", func(e *tools.Exec) tools.Decision {
		if e.Name == "guarded" {
			return tools.Decision{Kind: tools.Ask, Reason: "it is guarded"}
		}
		return tools.Decision{Kind: tools.Allow}
	})
)

const guardedComposition = "plugins:\n  - name: tools\n  - name: test-guarded\n  - name: test-ask\n"

func composeGuarded(t *testing.T, approve string) *host {
	t.Helper()
	o := defaultOptions()
	o.modules = []fx.Option{kernelfx.Plugin(guardedTool), kernelfx.Plugin(askGuarded)}
	o.profiles = map[string][]byte{DefaultProfile: []byte(guardedComposition)}
	h, err := compose(context.Background(), o, &flags{workdir: t.TempDir(), approve: approve}, zaptest.NewLogger(t))
	require.NoError(t, err)
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
			h := composeGuarded(t, approveAllowOnce) // --approve never applies to MCP calls
			eng, err := newToolsEngine(h.k)
			require.NoError(t, err)
			ct, st := mcp.NewInMemoryTransports()
			done := make(chan error, 1)
			go func() { done <- newMCPHost(eng, hostConfig{version: "test"}).serveConn(context.Background(), st) }()
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

func TestApprovalInRun(t *testing.T) {
	tests := []struct{ approve, want string }{
		{approveAllowOnce, `"isError":false,"text":"ran"`},
		{approveReject, `"text":"Error: the user rejected tool \"guarded\""`},
		{"", `"text":"Error: tool \"guarded\" requires approval, but no approval channel is available"`},
	}
	for _, tt := range tests {
		t.Run("approve="+tt.approve, func(t *testing.T) {
			h := composeGuarded(t, tt.approve)
			eng, err := newToolsEngine(h.k)
			require.NoError(t, err)
			var out bytes.Buffer
			in := `{"id":1,"tool":"guarded"}` + "\n" + `{"id":2,"tool":"guarded","session":null}` + "\n"
			require.NoError(t, newRunner(eng, nil).serve(context.Background(), strings.NewReader(in), &out))
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			require.Len(t, lines, 2)
			assert.Contains(t, lines[0], tt.want)
			assert.Contains(t, lines[1], `requires approval, but the call has no agent to route it through`)
		})
	}
}

func TestComposedApprovalProviderWins(t *testing.T) {
	mine := &hostApprover{fixed: approveReject, log: zaptest.NewLogger(t)}
	o := defaultOptions()
	o.modules = []fx.Option{kernelfx.Plugin(toolstest.ProvideApproval("test-approval", mine))}
	o.profiles = map[string][]byte{DefaultProfile: []byte("plugins:\n  - name: tools\n  - name: test-approval\n")}
	h, err := compose(context.Background(), o, &flags{workdir: t.TempDir(), approve: approveAllowOnce}, zaptest.NewLogger(t))
	require.NoError(t, err)
	defer h.close()
	got, ok := tools.Approval.Get(h.k.Root())
	require.True(t, ok)
	assert.Same(t, mine, got, "the host adds its channel only when the composition provides none")
}
