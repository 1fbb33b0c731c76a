package toolfs_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// Benchmarks of the read window and the tools over the real fs-local provider.
//
//	go test -run '^$' -bench . -benchtime 5x ./plugins/toolfs/
//	CORDON_BENCH_BIG=1 go test -run '^$' -bench 'LastPage1GiB|LongLine100MiB' -benchtime 5x ./plugins/toolfs/
//
// Each benchmark reports peak-heap-MiB: the largest HeapInuse seen while it ran (sampled every
// millisecond), a conservative stand-in for the resident memory the read needs.

// linesFile writes (once) a file of n lines of 106 bytes plus '\n' at path and returns its path.
func linesFile(b *testing.B, path string, n int) string {
	b.Helper()
	if st, err := os.Stat(path); err == nil && st.Size() == int64(n)*107 {
		return path
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	pad := strings.Repeat("x", 120)
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i) + " " + pad
		_, _ = w.WriteString(s[:106])
		_ = w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// peakHeap samples the bytes of live and unswept heap objects (runtime/metrics, which does not
// stop the world) every millisecond until stop is called, and returns the peak in MiB.
func peakHeap() (stop func() float64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak.Load()) / (1 << 20)
	}
}

// benchEnv is a bare deployment over dir (no policy: the benchmarks measure the tools) and a
// session whose cwd is dir.
func benchEnv(b *testing.B, dir string) (*tools.Runtime, *tools.Session) {
	b.Helper()
	root := kerneltest.NewRoot(b, kernel.WithLogger(zap.NewNop()))
	cfg := fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}
	for _, l := range []struct {
		m   kernel.Module
		cfg any
	}{{fslocal.Plugin, cfg}, {tools.Plugin, nil}, {toolfs.Plugin, nil}} {
		kerneltest.RequireActive(b, kerneltest.RequireLoad(b, root, l.m, l.cfg))
	}
	rt, ok := tools.Service.Get(root)
	if !ok {
		b.Fatal("no tools runtime")
	}
	s := tools.NewSession("bench")
	s.SetHeader(tools.Header{Cwd: dir})
	return rt, s
}

const lastPageLines = 300

func benchReadLastPage(b *testing.B, path string, lines int) {
	rt, s := benchEnv(b, filepath.Dir(path))
	// The last page: 300 lines of 106 bytes fit the default 36,000-byte result budget (400 would not).
	args := map[string]any{"file_path": path, "offset": lines - lastPageLines + 1}
	// Warm the page cache and check the result once.
	r := rt.Execute(context.Background(), tools.Call{CallID: "warm", Name: "read", Args: args, Session: s})
	if r.IsError || !strings.HasSuffix(r.Text(), endOf(lines)+"\n</content>") {
		b.Fatalf("unexpected read result: %.200s", r.Text())
	}
	runtime.GC()
	stop := peakHeap()
	b.SetBytes(int64(lines) * 107)
	b.ResetTimer()
	for b.Loop() {
		r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: args, Session: s})
		if r.IsError {
			b.Fatal(r.Text())
		}
	}
	b.StopTimer()
	b.ReportMetric(stop(), "peak-heap-MiB")
}

// BenchmarkReadSmall4KiB reads a whole 4 KiB file (38 lines) through the tools runtime and
// fs-local's ReadText: the per-call cost of a read (resolve, stat, charset, text, window,
// observation) rather than its throughput.
func BenchmarkReadSmall4KiB(b *testing.B) {
	const n = 38
	path := linesFile(b, filepath.Join(b.TempDir(), "small.txt"), n)
	rt, s := benchEnv(b, filepath.Dir(path))
	args := map[string]any{"file_path": path}
	r := rt.Execute(context.Background(), tools.Call{CallID: "warm", Name: "read", Args: args, Session: s})
	if r.IsError || !strings.HasSuffix(r.Text(), endOf(n)+"\n</content>") {
		b.Fatalf("unexpected read result: %.200s", r.Text())
	}
	b.SetBytes(n * 107)
	b.ResetTimer()
	for b.Loop() {
		r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: args, Session: s})
		if r.IsError {
			b.Fatal(r.Text())
		}
	}
}

// BenchmarkReadLastPage64MiB reads the last 300 lines of a 627k-line (64 MiB) file through the
// tools runtime and fs-local's stream.
func BenchmarkReadLastPage64MiB(b *testing.B) {
	const n = 627_000
	benchReadLastPage(b, linesFile(b, filepath.Join(b.TempDir(), "lines.txt"), n), n)
}

// BenchmarkReadLastPage1GiB reads the last 300 lines of a 10M-line (1.07 GB) file. The file is
// generated once under os.TempDir()/cordon-toolfs-bench. Set CORDON_BENCH_BIG=1 to run it.
func BenchmarkReadLastPage1GiB(b *testing.B) {
	if os.Getenv("CORDON_BENCH_BIG") != "1" {
		b.Skip("set CORDON_BENCH_BIG=1 to run the 1 GiB benchmark")
	}
	const n = 10_000_000
	benchReadLastPage(b, linesFile(b, filepath.Join(os.TempDir(), "cordon-toolfs-bench", "lines-10M.txt"), n), n)
}

// BenchmarkReadLongLine100MiB reads a file that is one 100 MiB line (16 MiB without
// CORDON_BENCH_BIG=1): the line buffer stays bounded by readMaxLineLength.
func BenchmarkReadLongLine100MiB(b *testing.B) {
	size := 16 << 20
	if os.Getenv("CORDON_BENCH_BIG") == "1" {
		size = 100 << 20
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "line.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	chunk := []byte(strings.Repeat("é", 1<<19)) // 1 MiB
	for range size >> 20 {
		if _, err := f.Write(chunk); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	rt, s := benchEnv(b, dir)
	args := map[string]any{"file_path": path}
	r := rt.Execute(context.Background(), tools.Call{CallID: "warm", Name: "read", Args: args, Session: s})
	if r.IsError || !strings.Contains(r.Text(), truncatedTo(2000)) {
		b.Fatalf("unexpected read result: %.200s", r.Text())
	}
	runtime.GC()
	stop := peakHeap()
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: args, Session: s})
		if r.IsError {
			b.Fatal(r.Text())
		}
	}
	b.StopTimer()
	b.ReportMetric(stop(), "peak-heap-MiB")
}

// BenchmarkEditOneLine16MiB edits one line of a 16 MiB file per iteration through the tools
// runtime: the provider's edit plus the canonical value and the diff meta.
func BenchmarkEditOneLine16MiB(b *testing.B) {
	const n = 16 << 20 / 107
	dir := b.TempDir()
	path := linesFile(b, filepath.Join(dir, "edit.txt"), n)
	rt, s := benchEnv(b, dir)
	mid := strconv.Itoa(n/2) + " xxx"
	alt := strconv.Itoa(n/2) + " yyy"
	from, to := mid, alt
	runtime.GC()
	stop := peakHeap()
	b.SetBytes(int64(n) * 107)
	b.ResetTimer()
	for b.Loop() {
		r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "edit", Args: map[string]any{
			"file_path": path, "old_string": from, "new_string": to,
		}, Session: s})
		if r.IsError {
			b.Fatal(r.Text())
		}
		from, to = to, from
	}
	b.StopTimer()
	b.ReportMetric(stop(), "peak-heap-MiB")
}

// BenchmarkComputeHunkDiffs16MiB is the diff-meta share of BenchmarkEditOneLine16MiB: one changed
// line in the middle of 16 MiB.
func BenchmarkComputeHunkDiffs16MiB(b *testing.B) {
	const n = 16 << 20 / 107
	var sb strings.Builder
	pad := strings.Repeat("x", 120)
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i) + " " + pad
		sb.WriteString(s[:106])
		sb.WriteByte('\n')
	}
	before := sb.String()
	after := strings.Replace(before, strconv.Itoa(n/2)+" xxx", strconv.Itoa(n/2)+" yyy", 1)
	b.SetBytes(int64(len(before)))
	for b.Loop() {
		if d := filetool.ComputeHunkDiffs("f", before, after); len(d) != 1 {
			b.Fatal(len(d))
		}
	}
}

// BenchmarkWindowRender2000 windows and renders a 2,000-line file read whole, the work of a
// default read between the provider and the wire.
func BenchmarkWindowRender2000(b *testing.B) {
	var sb strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&sb, "line %05d abcdefghij\n", i)
	}
	text := sb.String()
	req := toolfs.WindowRequest{Offset: 1, Limit: toolfs.DefaultReadLimit, MaxLineLength: toolfs.DefaultReadMaxLineLength,
		MaxBytes: toolfs.DefaultReadMaxBytes}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := toolfs.WindowString(text, req, "/f")
		if err != nil {
			b.Fatal(err)
		}
		out := toolfs.RenderRead(toolfs.ReadValue{Path: "/f", Offset: 1, Lines: res.Lines, TotalLines: res.TotalLines}, req.Limit)
		if len(out) < len(text) {
			b.Fatal("short render")
		}
	}
}

// BenchmarkWindowRender2000Budget is BenchmarkWindowRender2000 with a result budget: "wide" never
// stops the window (the cost of counting the rendered text of all 2,000 lines), "default" is the
// default budget's shorter window.
func BenchmarkWindowRender2000Budget(b *testing.B) {
	var sb strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&sb, "line %05d abcdefghij\n", i)
	}
	text := sb.String()
	for _, c := range []struct {
		name   string
		budget int
	}{{"wide", 1 << 30}, {"default", toolfs.DefaultResultBudget}} {
		b.Run(c.name, func(b *testing.B) {
			req := toolfs.WindowRequest{Offset: 1, Limit: toolfs.DefaultReadLimit, MaxLineLength: toolfs.DefaultReadMaxLineLength,
				MaxBytes: toolfs.DefaultReadMaxBytes, Budget: c.budget, PathBytes: len("/f")}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := toolfs.WindowString(text, req, "/f")
				if err != nil {
					b.Fatal(err)
				}
				out := toolfs.RenderRead(toolfs.ReadValue{Path: "/f", Offset: 1, Lines: res.Lines, TotalLines: res.TotalLines}, req.Limit)
				if len(out) > c.budget {
					b.Fatal("over the budget")
				}
			}
		})
	}
}
