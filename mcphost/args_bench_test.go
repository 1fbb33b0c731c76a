package mcphost_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// BenchmarkArgsPath measures what a direct stdio tools/call does with its arguments before the
// tool body sees them: mcpstdio.PlainCall on the params, then the runtime's snapshot, schema check
// and decode into the tool's In (a body that does nothing), for a read's small arguments and an
// edit's 71 KB (two 35 KB strings with escapes and non-ASCII text).
func BenchmarkArgsPath(b *testing.B) {
	k := kernel.New(kernel.WithLogger(zap.NewNop()))
	defer func() { _ = k.Close(context.Background()) }()
	root := k.Root()
	if _, err := root.Load(tools.Plugin, nil); err != nil {
		b.Fatal(err)
	}
	rt, _ := tools.Service.Get(root)
	render := func(string) []tools.Content { return []tools.Content{tools.TextContent("ok")} }
	read := tools.Tool[toolstest.ReadArgs, string]{
		Name:       "read",
		Parameters: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"number"},"limit":{"type":"number"}},"required":["file_path"]}`),
		Execute:    func(context.Context, toolstest.ReadArgs, *tools.Exec) (string, error) { return "", nil },
		Render:     func(_ toolstest.ReadArgs, v string) []tools.Content { return render(v) },
	}
	edit := tools.Tool[toolstest.EditArgs, string]{
		Name: "edit",
		Parameters: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"old_string":{"type":"string"},` +
			`"new_string":{"type":"string"},"replace_all":{"type":"boolean"}},"required":["file_path","old_string","new_string"]}`),
		Execute: func(context.Context, toolstest.EditArgs, *tools.Exec) (string, error) { return "", nil },
		Render:  func(_ toolstest.EditArgs, v string) []tools.Content { return render(v) },
	}
	for _, d := range []tools.Definition{read.Definition(), edit.Definition()} {
		if _, err := rt.Register(root, d); err != nil {
			b.Fatal(err)
		}
	}
	line := "\tfmt.Println(\"héllo, wörld → ✓\") // \\ a \"quoted\" <tag> & more\n"
	quoted, _ := json.Marshal(line)
	old := strings.Repeat(line, 35000/len(quoted)) // 35 KB as JSON text
	args, _ := json.Marshal(map[string]any{"file_path": "src/main.go", "old_string": old, "new_string": strings.ToUpper(old), "replace_all": true})
	for _, bc := range []struct{ name, params string }{
		{"small", `{"name":"read","arguments":{"file_path":"src/main.go","offset":120,"limit":40}}`},
		{"edit-71KB", `{"name":"edit","arguments":` + string(args) + `}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			params := json.RawMessage(bc.params)
			ctx := context.Background()
			b.SetBytes(int64(len(params)))
			b.ReportAllocs()
			for b.Loop() {
				p, ok := mcpstdio.PlainCall(params)
				if !ok {
					b.Fatal("not a plain call")
				}
				if res := rt.Execute(ctx, tools.Call{CallID: "c", Name: p.Name, Args: p.Arguments}); res.IsError {
					b.Fatal(res.Text())
				}
			}
		})
	}
}
