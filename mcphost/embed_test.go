package mcphost_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// embedderKernel composes fs-local, tools and tool-fs, as an embedder would, with extra modules.
func embedderKernel(t *testing.T, extra ...kernel.Module) *kernel.Kernel {
	t.Helper()
	var k *kernel.Kernel
	app := fx.New(fx.NopLogger, fx.Supply(zap.NewNop()), kernelfx.Module, fslocal.Module, tools.Module, toolfs.Module,
		kernelfx.YAML([]byte("plugins: [{name: fs-local}, {name: tools}, {name: tool-fs}]")), fx.Populate(&k))
	require.NoError(t, app.Start(context.Background()))
	t.Cleanup(func() { _ = app.Stop(context.Background()) })
	for _, m := range extra {
		_, err := k.Root().Load(m, nil)
		require.NoError(t, err)
	}
	return k
}

// A composition without an approval provider gets the host's for as long as the host lives; one
// with a provider keeps it.
func TestNewProvidesApprovalsWhenNoneComposed(t *testing.T) {
	k := embedderKernel(t)
	_, ok := tools.Approval.Get(k.Root())
	require.False(t, ok)
	h, err := mcphost.New(k.Root(), mcphost.Config{})
	require.NoError(t, err)
	_, ok = tools.Approval.Get(k.Root())
	assert.True(t, ok, "the host provides the approval service")
	h.Close()
	_, ok = tools.Approval.Get(k.Root())
	assert.False(t, ok, "and withdraws it when closed")

	k = embedderKernel(t, toolstest.ProvideApproval("own-approval", rejecter{}))
	h, err = mcphost.New(k.Root(), mcphost.Config{})
	require.NoError(t, err)
	defer h.Close()
	a, ok := tools.Approval.Get(k.Root())
	require.True(t, ok)
	got, err := a.Request(context.Background(), tools.ApprovalRequest{ToolName: "write"})
	require.NoError(t, err)
	assert.Equal(t, tools.Rejected, got, "the composed provider stays")
}

// rejecter is an approval provider that rejects every request.
type rejecter struct{}

func (rejecter) Request(context.Context, tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	return tools.Rejected, nil
}

// The zero HTTPOptions serve (the defaults apply): an initialize over the handler is answered.
func TestHTTPZeroOptionsServe(t *testing.T) {
	h, err := mcphost.New(embedderKernel(t).Root(), mcphost.Config{})
	require.NoError(t, err)
	defer h.Close()
	srv := httptest.NewServer(h.HTTP(mcphost.HTTPOptions{}).Handler())
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "embed_test.go", "limit": 1}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	resp, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// An embedder's own *mcp.Server serves the host's tools, under the embedder's name.
func TestConfigServerIsTheEmbeddersOwn(t *testing.T) {
	own := mcp.NewServer(&mcp.Implementation{Name: "embedder-server", Version: "9"}, nil)
	h, err := mcphost.New(embedderKernel(t).Root(), mcphost.Config{Server: own})
	require.NoError(t, err)
	defer h.Close()
	require.Same(t, own, h.Server())
	ctx := context.Background()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	go func() { _ = h.Serve(ctx, serverEnd) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, clientEnd, nil)
	require.NoError(t, err)
	defer cs.Close()
	assert.Equal(t, "embedder-server", cs.InitializeResult().ServerInfo.Name)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "embed_test.go", "limit": 1}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "<path>"), res.Content[0].(*mcp.TextContent).Text)
}
