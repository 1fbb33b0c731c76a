package filetool_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// snippet: docs/filetool.md line-count
type lineCountArgs struct {
	FilePath string `json:"file_path"`
}

type lineCountValue struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
}

// LineCount registers line_count: a read-only file tool that resolves against the session's cwd,
// reads through the mounted filesystem, records what the model learned (the file exists at this
// version; it was shown no text) and keeps its failures within the client's result budget.
var LineCount = kernel.Define("line-count", func(kc *kernel.Context, _ struct{}) error {
	env, err := filetool.NewEnv(kc)
	if err != nil {
		return err
	}
	budget, err := filetool.NewBudget("line-count", filetool.DefaultBudget, filetool.KnownBudgets[int64]())
	if err != nil {
		return err
	}
	count := func(ctx context.Context, a lineCountArgs, exec *tools.Exec) (lineCountValue, error) {
		cwd := filetool.SessionCwd(exec.Header().Cwd, a.FilePath)
		target, err := env.FS.Resolve(ctx, a.FilePath, fs.ResolveOptions{Cwd: cwd})
		if err != nil {
			return lineCountValue{}, err
		}
		info, err := env.FS.Stat(ctx, target)
		if err != nil {
			return lineCountValue{}, err
		}
		if info == nil {
			return lineCountValue{}, fs.ReadNotFound(target.DisplayPath, nil)
		}
		read, err := env.FS.ReadText(ctx, target)
		if err != nil {
			return lineCountValue{}, filetool.WithCharsetGuidance(err)
		}
		if err := env.Observe(ctx, target, fs.Present(info.Version), exec); err != nil {
			return lineCountValue{}, err
		}
		return lineCountValue{Path: target.DisplayPath, Lines: strings.Count(read.Text, "\n")}, nil
	}
	_, err = tools.Service.Must(kc).Register(kc, tools.Tool[lineCountArgs, lineCountValue]{
		Name:        "line_count",
		Description: "Counts the lines of a text file.",
		Parameters:  []byte(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`),
		Execute:     filetool.BudgetErrors(budget, count),
		Render: func(_ lineCountArgs, v lineCountValue) []tools.Content {
			return []tools.Content{tools.TextContent(fmt.Sprintf("%s: %d lines", filepath.Base(v.Path), v.Lines))}
		},
		Annotations: tools.Annotations{ReadOnly: true},
	}.Definition())
	return err
}, fs.Service.Dep(), tools.Service.Dep())

// end snippet

// A guarded file tool beside the stock ones: line_count records its observation as read does, so
// the observation policy's read gate lets the stock edit through afterwards; before it, edit
// refuses the file as unread.
func Example() {
	dir, _ := os.MkdirTemp("", "filetool-")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\n"), 0o644)

	ctx := context.Background()
	k := kernel.New()
	defer k.Close(ctx)
	for _, m := range []kernel.Module{tools.Plugin, fslocal.Plugin, fspolicy.Plugin, toolfs.Plugin, LineCount} {
		if _, err := k.Root().Load(m, nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	rt := tools.Service.Must(k.Root())
	sess := tools.NewSession("agent-1")
	sess.SetHeader(tools.Header{Cwd: dir})
	call := func(name, args string) tools.Result {
		return rt.Execute(ctx, tools.Call{CallID: name, Name: name, Args: []byte(args), Session: sess})
	}
	edit := `{"file_path":"notes.txt","old_string":"two","new_string":"2"}`
	fmt.Println(call("edit", edit).Code())
	fmt.Println(call("line_count", `{"file_path":"notes.txt"}`).Text())
	fmt.Println(call("edit", edit).IsError)
	// Output:
	// FS_NOT_OBSERVED
	// notes.txt: 2 lines
	// false
}
