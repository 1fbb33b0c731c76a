package mcphost_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Example serves Cordon's tools over MCP from an embedder's own binary: a kernel composed of
// fs-local (rooted at the working directory), tools and tool-fs; its runtime served by mcphost, here
// over an in-memory transport (a binary would call host.ServeStdio or mcphost.NewHTTP); and the Go
// MCP SDK's client reading the first line of this package's doc.go.
func Example() {
	ctx := context.Background()
	var k *kernel.Kernel
	app := fx.New(fx.NopLogger, fx.Supply(zap.NewNop()), kernelfx.Module, fslocal.Module, tools.Module, toolfs.Module,
		kernelfx.YAML([]byte("plugins: [{name: fs-local}, {name: tools}, {name: tool-fs}]")), fx.Populate(&k))
	if err := app.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer app.Stop(ctx)

	host, err := mcphost.New(k.Root(), mcphost.Config{Version: "1.0"})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	go host.Serve(ctx, serverEnd)

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "embedder", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "doc.go", "limit": 1}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, strings.Split(res.Content[0].(*mcp.TextContent).Text, "\n")[3])
	// Output:
	// false 1: // Package mcphost is Cordon's MCP host: it serves the tools runtime of a composed kernel
}
