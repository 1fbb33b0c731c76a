package toolfs_test

import (
	"bytes"
	"context"
	"io"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// rawTextChunks streams a file's text the way fs-local checks it (NUL in the first 8192 bytes, a
// leading BOM dropped, strict UTF-8 with a sequence split across reads carried over) but lends one
// reused buffer instead of allocating a string per chunk: the shape of a provider implementing
// toolfs.TextByteStreamer.
func rawTextChunks(path, display string, bufSize int) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		f, err := os.Open(path)
		if err != nil {
			yield(nil, fs.ReadNotFound(display, err))
			return
		}
		defer f.Close()
		buf := make([]byte, bufSize+utf8.UTFMax)
		carry, seen, started := 0, 0, false
		for {
			n, err := io.ReadAtLeast(f, buf[carry:carry+bufSize], min(bufSize, max(1, 8192-seen)))
			if n > 0 {
				if seen < 8192 && bytes.IndexByte(buf[carry:carry+min(n, 8192-seen)], 0) >= 0 {
					yield(nil, fs.ReadBinary(display))
					return
				}
				seen += n
				data := buf[:carry+n]
				cut := completeUTF8(data)
				if !utf8.Valid(data[:cut]) {
					yield(nil, fs.ReadInvalidUTF8(display))
					return
				}
				text := data[:cut]
				if !started && len(text) > 0 {
					started = true
					text = bytes.TrimPrefix(text, []byte("\ufeff"))
				}
				if len(text) > 0 && !yield(text, nil) {
					return
				}
				carry = copy(buf, data[cut:])
			}
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				break
			}
			if err != nil {
				yield(nil, err)
				return
			}
		}
		if carry > 0 {
			yield(nil, fs.ReadInvalidUTF8(display))
		}
	}
}

// completeUTF8 returns the length of the prefix of p that ends on a sequence boundary.
func completeUTF8(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		c := p[i]
		if c < 0x80 {
			return len(p)
		}
		if c >= 0xC0 {
			size := 4
			switch {
			case c < 0xE0:
				size = 2
			case c < 0xF0:
				size = 3
			}
			if len(p)-i < size {
				return i
			}
			return len(p)
		}
	}
	return len(p)
}

// lentFS is a provider that also lends byte chunks (toolfs.TextByteStreamer).
type lentFS struct {
	fs.FileSystem
	bufSize int
	streams int
}

var _ toolfs.TextByteStreamer = (*lentFS)(nil)

func (l *lentFS) StreamTextBytes(ctx context.Context, t fs.Target) (iter.Seq2[[]byte, error], error) {
	l.streams++
	if _, err := l.FileSystem.StreamText(ctx, t); err != nil { // the provider's preflight
		return nil, err
	}
	return rawTextChunks(l.ProcessPath(t), t.DisplayPath, l.bufSize), nil
}

// lentEnv is a bare deployment whose provider lends byte chunks.
func lentEnv(tb testing.TB, dir string, cfg any, bufSize int) (*tools.Runtime, *lentFS) {
	tb.Helper()
	root := kerneltest.NewRoot(tb, kernel.WithLogger(zap.NewNop()))
	l := &lentFS{bufSize: bufSize}
	provider := kernel.Module{ID: "lent-fs", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}, kc.Logger())
		if err != nil {
			return err
		}
		l.FileSystem = p
		_, err = fs.Service.Provide(kc, l)
		return err
	}}
	kerneltest.RequireActive(tb, kerneltest.RequireLoad(tb, root, provider, nil))
	kerneltest.RequireActive(tb, kerneltest.RequireLoad(tb, root, tools.Plugin, nil))
	kerneltest.RequireActive(tb, kerneltest.RequireLoad(tb, root, toolfs.Plugin, cfg))
	rt, _ := tools.Service.Get(root)
	return rt, l
}

// TestLentBytesStreamMatchesStrings pins that a provider lending byte chunks gives the same
// results as the string stream and as a whole read, errors included.
func TestLentBytesStreamMatchesStrings(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	files := map[string]string{
		"a.txt":   "\ufeffé\r\nline two\n\n" + strings.Repeat("ü", 3000) + "\nlast",
		"bin":     "ab\x00",
		"bad.txt": strings.Repeat("a", 9000) + "\xe2\x82",
		"e.txt":   "",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	stream := toolfs.DefaultConfig()
	stream.ReadStreamMinSize = 1
	lent, l := lentEnv(t, dir, stream, 7) // tiny reads: sequences split across chunks
	plain, _ := lentEnv(t, dir, nil, 7)   // whole reads (files are small)
	for name := range files {
		for _, a := range []map[string]any{{}, {"offset": 2, "limit": 2}} {
			a["file_path"] = name
			got := lent.Execute(context.Background(), tools.Call{CallID: "l", Name: "read", Args: a})
			want := plain.Execute(context.Background(), tools.Call{CallID: "p", Name: "read", Args: a})
			assert.Equal(t, want.Text(), got.Text(), "%s %v", name, a)
			assert.Equal(t, want.Code(), got.Code(), "%s %v", name, a)
		}
	}
	assert.Positive(t, l.streams, "the lent-bytes path was used")
}

// BenchmarkFloorLastPage1GiB puts the read of the last page of the 1 GiB file next to its floor:
// `wc -l` and `cat > /dev/null` on the same file, the window alone over lent chunks of 64 KiB and
// 1 MiB, and the whole read tool over a provider lending 1 MiB chunks. Set CORDON_BENCH_BIG=1.
func BenchmarkFloorLastPage1GiB(b *testing.B) {
	if os.Getenv("CORDON_BENCH_BIG") != "1" {
		b.Skip("set CORDON_BENCH_BIG=1 to run the 1 GiB benchmark")
	}
	const n = 10_000_000
	floor(b, linesFile(b, filepath.Join(os.TempDir(), "cordon-toolfs-bench", "lines-10M.txt"), n), n)
}

// BenchmarkFloorLastPage64MiB is BenchmarkFloorLastPage1GiB on a 64 MiB file.
func BenchmarkFloorLastPage64MiB(b *testing.B) {
	const n = 627_000
	floor(b, linesFile(b, filepath.Join(b.TempDir(), "lines.txt"), n), n)
}

func floor(b *testing.B, path string, lines int) {
	bytesPerOp := int64(lines) * 107
	for _, tool := range [][]string{{"wc", "-l", path}, {"cat", path}} {
		b.Run(tool[0], func(b *testing.B) {
			b.SetBytes(bytesPerOp)
			for b.Loop() {
				cmd := exec.Command(tool[0], tool[1:]...)
				devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
				if err != nil {
					b.Fatal(err)
				}
				cmd.Stdout = devnull
				err = cmd.Run()
				devnull.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	req := toolfs.WindowRequest{Offset: lines - lastPageLines + 1, Limit: 2000, MaxLineLength: 2000, MaxBytes: 51200}
	for _, size := range []int{64 << 10, 1 << 20} {
		name := map[int]string{64 << 10: "window-lent-64KiB", 1 << 20: "window-lent-1MiB"}[size]
		b.Run(name, func(b *testing.B) {
			runtime.GC()
			stop := peakHeap()
			b.SetBytes(bytesPerOp)
			for b.Loop() {
				w := toolfs.NewWindow(req)
				for chunk, err := range rawTextChunks(path, path, size) {
					if err != nil {
						b.Fatal(err)
					}
					_, _ = w.Write(chunk)
				}
				res, err := w.Finish(path)
				if err != nil || res.TotalLines != lines || len(res.Lines) != lastPageLines {
					b.Fatalf("window: %v %d %d", err, res.TotalLines, len(res.Lines))
				}
			}
			b.StopTimer()
			b.ReportMetric(stop(), "peak-heap-MiB")
		})
	}
	b.Run("tool-lent-1MiB", func(b *testing.B) {
		rt, _ := lentEnv(b, filepath.Dir(path), nil, 1<<20)
		args := map[string]any{"file_path": path, "offset": lines - lastPageLines + 1}
		runtime.GC()
		stop := peakHeap()
		b.SetBytes(bytesPerOp)
		for b.Loop() {
			r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: args})
			if r.IsError || !strings.HasSuffix(r.Text(), "lines)\n</content>") {
				b.Fatalf("%.200s", r.Text())
			}
		}
		b.StopTimer()
		b.ReportMetric(stop(), "peak-heap-MiB")
	})
}
