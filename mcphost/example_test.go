package mcphost_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
// fs-local, tools and tool-fs, its runtime served by mcphost over an in-memory transport, and the
// Go MCP SDK's client making one read call.
func Example() {
	dir, _ := os.MkdirTemp("", "mcphost-")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644)
	ctx := context.Background()

	var k *kernel.Kernel
	app := fx.New(fx.NopLogger, fx.Supply(zap.NewNop()), kernelfx.Module, fslocal.Module, tools.Module, toolfs.Module,
		kernelfx.YAML([]byte("plugins: [{name: fs-local, config: {cwd: "+dir+"}}, {name: tools}, {name: tool-fs}]")),
		fx.Populate(&k))
	if err := app.Start(ctx); err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = app.Stop(ctx) }()

	host, err := mcphost.New(k.Root(), mcphost.Config{Version: "1.0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Close()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	go func() { _ = host.Serve(ctx, serverEnd) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "embedder", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "notes.txt"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := res.Content[0].(*mcp.TextContent).Text
	fmt.Println(res.IsError, strings.Split(text, "\n")[3]) // the file's first line, numbered
	// Output:
	// false 1: hello
}
