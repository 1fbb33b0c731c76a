package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Example_embedding is the README's embedding story: a host builds its own fx app from the fx
// modules of the plugins it wants and a composition, then calls tools through the runtime.
func Example_embedding() {
	dir, _ := os.MkdirTemp("", "embed-")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\nworld\n"), 0o644)
	ctx := context.Background()

	var k *kernel.Kernel
	app := fx.New(
		fx.NopLogger,
		fx.Supply(zap.NewNop()),
		kernelfx.Module,
		fslocal.Module, fspolicy.Module, tools.Module, toolfs.Module,
		kernelfx.YAML([]byte("plugins: [{name: fs-local}, {name: fs-observation-policy}, {name: tools}, {name: tool-fs}]")),
		fx.Populate(&k),
	)
	if err := app.Start(ctx); err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = app.Stop(ctx) }()

	rt := tools.Service.Must(k.Root())
	sess := tools.NewSession("agent-1")
	sess.SetHeader(tools.Header{Cwd: dir})
	write := rt.Execute(ctx, tools.Call{CallID: "c1", Name: "write", Session: sess,
		Args: json.RawMessage(`{"file_path":"notes.txt","content":"bye\n"}`)})
	fmt.Println(write.IsError, write.Code())
	read := rt.Execute(ctx, tools.Call{CallID: "c2", Name: "read", Session: sess,
		Args: json.RawMessage(`{"file_path":"notes.txt"}`)})
	fmt.Println(read.IsError, len(read.Content))
	write = rt.Execute(ctx, tools.Call{CallID: "c3", Name: "write", Session: sess,
		Args: json.RawMessage(`{"file_path":"notes.txt","content":"bye\n"}`)})
	fmt.Println(write.IsError)
	rt.EndSession(ctx, sess)
	// Output:
	// true FS_NOT_OBSERVED
	// false 1
	// false
}
