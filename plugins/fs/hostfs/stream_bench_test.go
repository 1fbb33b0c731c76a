package hostfs_test

import (
	"bufio"
	"context"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// benchFile writes (once per benchmark) a text file of CORDON_BENCH_STREAM_MB
// MiB (default 8) of mixed ASCII and multi-byte lines. CORDON_BENCH_STREAM_FILE
// keeps it at that path instead of a temp dir (to compare with cat).
func benchFile(b *testing.B) (string, int64) {
	b.Helper()
	mb := 8
	if v := os.Getenv("CORDON_BENCH_STREAM_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("CORDON_BENCH_STREAM_MB=%q: want a positive integer", v)
		}
		mb = n
	}
	path := os.Getenv("CORDON_BENCH_STREAM_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "big.txt")
	}
	size := int64(mb) << 20
	if fi, err := os.Stat(path); err == nil && fi.Size() == size {
		return path, size
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := []byte("func main() { fmt.Println(\"héllo, 世界 🎉\") } // a typical source line of text\n")
	for written := int64(0); written < size; {
		n := min(int64(len(line)), size-written)
		chunk := line[:n]
		if n < int64(len(line)) {
			for i := range chunk {
				chunk[i] = 'x' // keep the tail valid UTF-8
			}
		}
		if _, err := w.Write(chunk); err != nil {
			b.Fatal(err)
		}
		written += n
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, size
}

// BenchmarkStreamText streams a whole file through StreamText. Besides the
// throughput (MB/s) and allocations it reports peak-heap-MiB, the largest
// HeapInuse growth above the starting heap sampled every 4 MiB of text, and
// alloc-B/MiB, the bytes allocated per MiB streamed (one string copy per
// chunk): both must stay flat as CORDON_BENCH_STREAM_MB grows.
func BenchmarkStreamText(b *testing.B) {
	benchStream(b, func(p *hostfs.Provider) func(context.Context, fs.Target) (iter.Seq2[string, error], error) {
		return p.StreamText
	})
}

// BenchmarkStreamTextBytes is BenchmarkStreamText through the lending stream
// (one reused buffer): alloc-B/MiB should be near zero.
func BenchmarkStreamTextBytes(b *testing.B) {
	benchStream(b, func(p *hostfs.Provider) func(context.Context, fs.Target) (iter.Seq2[[]byte, error], error) {
		return p.StreamTextBytes
	})
}

func benchStream[T string | []byte](b *testing.B, open func(*hostfs.Provider) func(context.Context, fs.Target) (iter.Seq2[T, error], error)) {
	path, size := benchFile(b)
	p, err := hostfs.New(hostfs.Config{Cwd: filepath.Dir(path)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	stream := open(p)
	ctx := context.Background()
	tg, err := p.Resolve(ctx, path, fs.ResolveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var base, ms runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		seq, err := stream(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		var total, sinceSample int64
		for chunk, err := range seq {
			if err != nil {
				b.Fatal(err)
			}
			total += int64(len(chunk))
			sinceSample += int64(len(chunk))
			if sinceSample >= 4<<20 {
				sinceSample = 0
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > base.HeapInuse && ms.HeapInuse-base.HeapInuse > peak {
					peak = ms.HeapInuse - base.HeapInuse
				}
			}
		}
		if total != size {
			b.Fatalf("streamed %d bytes, want %d", total, size)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(ms.TotalAlloc-base.TotalAlloc)/float64(b.N)/float64(size>>20), "alloc-B/MiB")
}

// BenchmarkReadText is the whole-file read of the same file, for comparison
// (its memory grows with the file).
func BenchmarkReadText(b *testing.B) {
	path, size := benchFile(b)
	p, err := hostfs.New(hostfs.Config{Cwd: filepath.Dir(path)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tg, err := p.Resolve(ctx, path, fs.ResolveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		read, err := p.ReadText(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		if int64(len(read.Text)) != size {
			b.Fatalf("read %d bytes, want %d", len(read.Text), size)
		}
	}
}
