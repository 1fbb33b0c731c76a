package mcphost_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Example serves Cordon's tools over MCP from an embedder's own binary: a kernel composed of a
// sandbox confined to a workspace (sandbox-policy, fs-sandbox), tools and tool-fs; one host serving
// it on stdio (here over pipes; a binary passes os.Stdin and os.Stdout) and over Streamable HTTP at
// once, with the zero values of Config and HTTPOptions. The composition has no approval provider,
// so the host provides one: a write outside the workspace asks for an escalation, which the HTTP
// client is asked through elicitation and allows.
func Example() {
	ctx, stop := context.WithCancel(context.Background())
	ws, _ := os.MkdirTemp("", "workspace-")
	outside, _ := os.MkdirTemp("", "outside-")
	defer os.RemoveAll(ws)
	defer os.RemoveAll(outside)
	_ = os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("hello from the workspace\n"), 0o644)
	yaml := "plugins:\n" +
		"  - {name: sandbox-policy, config: {mode: workspace-write, workspaceRoot: " + strconv.Quote(ws) + "}}\n" +
		"  - {name: fs-sandbox, config: {cwd: " + strconv.Quote(ws) + "}}\n" +
		"  - {name: tools}\n  - {name: tool-fs}\n"
	var k *kernel.Kernel
	app := fx.New(fx.NopLogger, fx.Supply(zap.NewNop()), kernelfx.Module, sandboxpolicy.Module, fssandbox.Module,
		tools.Module, toolfs.Module, kernelfx.YAML([]byte(yaml)), fx.Populate(&k))
	if err := app.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer app.Stop(ctx)

	host, err := mcphost.New(k.Root(), mcphost.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	defer stop() // ends the stdio and HTTP serving before the host closes

	// stdio: one connection over a reader and a writer.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go host.ServeStdio(ctx, inR, outW, mcphost.StdioOptions{})
	client := mcp.NewClient(&mcp.Implementation{Name: "embedder", Version: "1"}, nil)
	stdio, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer stdio.Close()
	res, err := stdio.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "notes.txt"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stdio:", strings.Contains(res.Content[0].(*mcp.TextContent).Text, "1: hello from the workspace"))

	// HTTP: the same host, on a loopback listener.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go host.HTTP(mcphost.HTTPOptions{Addr: ln.Addr().String()}).Serve(ctx, ln)
	asker := mcp.NewClient(&mcp.Implementation{Name: "embedder", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", strings.SplitN(req.Params.Message, "\n", 2)[0])
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
		}})
	remote, err := asker.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer remote.Close()
	target := filepath.Join(outside, "escalated.txt")
	res, err = remote.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file_path": target,
		"content": "x\n", "sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}})
	if err != nil {
		log.Fatal(err)
	}
	_, statErr := os.Stat(target)
	fmt.Println("http: error", res.IsError, "written", statErr == nil)
	// Output:
	// stdio: true
	// asked: Allow the "write" tool call?
	// http: error false written true
}
