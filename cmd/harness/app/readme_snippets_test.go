package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The README's "Embedding Cordon in a Go host" snippets, held by code (docs/testing.md "Snippets
// held by code"): readmeEmbedding is the fx host, run by TestReadmeEmbedding; readmeServe serves
// its kernel over MCP on stdio (compiled; mcphost's Example runs a served call).

func readmeEmbedding(ctx context.Context, logger *zap.Logger) error {
	// snippet: README.md embedding
	var k *kernel.Kernel
	app := fx.New(
		fx.Supply(logger),  // the host's *zap.Logger
		kernelfx.WithZap(), // fx's own events to that logger at debug level (fx.NopLogger: none)
		kernelfx.Module,    // the kernel and its loader; applies the composition on start
		// the plugins' fx modules
		fslocal.Module, fspolicy.Module, tools.Module, toolfs.Module,
		kernelfx.YAML([]byte("plugins: [{name: fs-local}, {name: fs-observation-policy}, {name: tools}, {name: tool-fs}]")),
		fx.Populate(&k),
	)
	if err := app.Start(ctx); err != nil {
		return err // names the failing entry
	}
	defer app.Stop(ctx)

	rt := tools.Service.Must(k.Root())
	sess := tools.NewSession("agent-1") // one observation owner
	sess.SetHeader(tools.Header{Cwd: "/home/me/project"})
	res := rt.Execute(ctx, tools.Call{CallID: "c1", Name: "read", Session: sess,
		Args: json.RawMessage(`{"file_path":"notes.txt"}`)})
	fmt.Println(res.IsError, res.Text())
	rt.EndSession(ctx, sess)
	// end snippet
	return nil
}

func readmeServe(ctx context.Context, k *kernel.Kernel) error {
	// snippet: README.md mcphost
	host, err := mcphost.New(k.Root(), mcphost.Config{Version: "1.0", Model: "gpt-5"})
	if err != nil {
		return err // the composition has no tools runtime
	}
	defer host.Close()
	return host.ServeStdio(ctx, os.Stdin, os.Stdout, mcphost.StdioOptions{})
	// end snippet
}

var _ = readmeServe

// The README's embedding snippet starts its fx app, makes its call and stops cleanly.
func TestReadmeEmbedding(t *testing.T) {
	require.NoError(t, readmeEmbedding(context.Background(), zap.NewNop()))
}
