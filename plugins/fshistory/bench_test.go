package fshistory_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/proc"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// benchRuntime composes fs-local, tools, tool-fs (no observation policy: unconditional writes)
// and, when with, fs-history.
func benchRuntime(b *testing.B, with bool) (*tools.Runtime, string) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	root := kerneltest.NewRoot(b)
	load := func(m kernel.Module, cfg any) { kerneltest.RequireActive(b, kerneltest.RequireLoad(b, root, m, cfg)) }
	load(fslocal.Plugin, fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes})
	load(tools.Plugin, nil)
	load(toolfs.Plugin, nil)
	if with {
		var cfg fshistory.Config
		cfg.Defaults()
		cfg.Dir = filepath.Join(b.TempDir(), "history")
		load(fshistory.Plugin, &cfg)
	}
	rt, _ := tools.Service.Get(root)
	return rt, dir
}

func benchCalls(b *testing.B, tool string, args func(i int) map[string]any) {
	benchSpaced(b, 0, tool, args)
}

// benchSpaced is benchCalls with a pause before each call; its CPU per call counts what the
// process did during the pause too (the store let go in the background).
func benchSpaced(b *testing.B, pause time.Duration, tool string, args func(i int) map[string]any) {
	for _, with := range []bool{false, true} {
		name := "without-history"
		if with {
			name = "with-history"
		}
		b.Run(name, func(b *testing.B) {
			rt, dir := benchRuntime(b, with)
			p := filepath.Join(dir, "f.txt")
			require.NoError(b, os.WriteFile(p, []byte(strings.Repeat("line of text\n", 300)+"a\n"), 0o644))
			s := tools.NewSession("s1")
			ctx := context.Background()
			b.ResetTimer()
			cpu := proc.CPUTime()
			for i := 0; b.Loop(); i++ {
				time.Sleep(pause)
				a := args(i)
				a["file_path"] = p
				if r := rt.Execute(ctx, tools.Call{CallID: "c", Name: tool, Args: a, Session: s}); r.IsError {
					b.Fatal(r.Text())
				}
			}
			b.ReportMetric(float64(proc.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkWrite is the cost of one write of a 4 KiB file, with and without fs-history.
func BenchmarkWrite(b *testing.B) {
	body := strings.Repeat("line of text\n", 300)
	benchCalls(b, "write", func(i int) map[string]any {
		return map[string]any{"content": body + string(rune('a'+i%2)) + "\n"}
	})
}

// BenchmarkEdit is the cost of one edit of a 4 KiB file, with and without fs-history.
func BenchmarkEdit(b *testing.B) {
	benchCalls(b, "edit", flipEdit)
}

// BenchmarkEditSpaced is BenchmarkEdit with a 5 ms pause before each edit, as between an agent's
// edits: the store stays held across the pauses (HoldIdle), so each edit after the first is
// journaled. Its cpu-ns/op include the pause's idle CPU.
func BenchmarkEditSpaced(b *testing.B) {
	benchSpaced(b, 5*time.Millisecond, "edit", flipEdit)
}

// BenchmarkEditAfterIdle is BenchmarkEditSpaced with the store let go between edits (HoldIdle cut
// to 1 ms), as when another process took it meanwhile or the bell cannot be listened to: each edit
// opens the database again and commits its record in a transaction of its own (the journal serves
// only the edits of one hold). Its cpu-ns/op include the let-go.
func BenchmarkEditAfterIdle(b *testing.B) {
	defer func(d time.Duration) { history.HoldIdle = d }(history.HoldIdle)
	history.HoldIdle = time.Millisecond
	benchSpaced(b, 5*time.Millisecond, "edit", flipEdit)
}

// flipEdit is the i-th edit of BenchmarkEdit: each undoes the one before.
func flipEdit(i int) map[string]any {
	from, to := "a\n", "b\n"
	if i%2 == 1 {
		from, to = to, from
	}
	return map[string]any{"old_string": from, "new_string": to}
}
