package mcphost

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

func connectFake(t *testing.T, eng engine.Engine, cwd *string) (*mcp.ClientSession, chan error) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	h := newHost(eng, Config{Version: "test", Cwd: cwd})
	done := make(chan error, 1)
	go func() { done <- h.serveConn(context.Background(), st) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	return cs, done
}

func TestServeListsToolsWithRawSchemasAndAnnotations(t *testing.T) {
	cs, done := connectFake(t, newFakeEngine(), nil)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, 2)
	raw, err := json.Marshal(res.Tools[0].InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"x":{"type":"string"}}}`, string(raw))
	assert.True(t, res.Tools[0].Annotations.ReadOnlyHint)
	require.NotNil(t, res.Tools[1].Annotations.DestructiveHint)
	assert.True(t, *res.Tools[1].Annotations.DestructiveHint)
	assert.Equal(t, "Use echo.", cs.InitializeResult().Instructions)
	require.NoError(t, cs.Close())
	require.NoError(t, <-done)
}

func TestServeCallResults(t *testing.T) {
	eng := newFakeEngine()
	cwd := "/proj"
	cs, done := connectFake(t, eng, &cwd)
	ctx := context.Background()

	ok, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"x": "y"}})
	require.NoError(t, err)
	assert.False(t, ok.IsError)
	require.Len(t, ok.Content, 3)
	assert.Equal(t, "a", ok.Content[0].(*mcp.TextContent).Text)
	img := ok.Content[1].(*mcp.ImageContent)
	assert.Equal(t, []byte{0, 1}, img.Data)
	assert.Equal(t, "image/png", img.MIMEType)
	assert.Equal(t, map[string]any{"x": "y"}, ok.StructuredContent)
	assert.Nil(t, ok.Meta["error"])

	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"})
	require.NoError(t, err)
	assert.True(t, bad.IsError)
	assert.Equal(t, "Error: boom", bad.Content[0].(*mcp.TextContent).Text)
	assert.Nil(t, bad.StructuredContent)
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_BOOM"}, bad.Meta["error"])
	raw, err := json.Marshal(toCallToolResult(tools.Result{IsError: true, Error: &tools.ErrorInfo{Code: "C", Name: "N"}}).Meta)
	require.NoError(t, err)
	assert.Equal(t, `{"error":{"name":"N","code":"C"}}`, string(raw))

	require.NoError(t, cs.Close())
	require.NoError(t, <-done)
	assert.Len(t, eng.Opened(), 1, "one connection is one session")
	assert.Equal(t, eng.Opened(), eng.Ended(), "the session ends when the connection closes")
	for _, c := range eng.Calls() {
		assert.Equal(t, "/proj", c.Cwd)
		assert.Equal(t, eng.Opened()[0], c.Session)
	}
	assert.Equal(t, `{}`, eng.Calls()[1].Args, "absent arguments are an empty object")
}

func TestServeUncodedFailureHasNoMetaError(t *testing.T) {
	res := toCallToolResult(tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: x")}})
	assert.True(t, res.IsError)
	assert.Nil(t, res.Meta)
	assert.Nil(t, res.StructuredContent)
}
