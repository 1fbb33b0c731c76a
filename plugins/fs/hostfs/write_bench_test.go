package hostfs_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

func benchProvider(b *testing.B) (*hostfs.Provider, string) {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return p, dir
}

// benchText is n bytes of 64-byte ASCII lines.
func benchText(n int) string {
	line := strings.Repeat("x", 63) + "\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

func benchmarkWrite(b *testing.B, size int) {
	p, _ := benchProvider(b)
	tg, err := p.Resolve(context.Background(), "bench.txt", fs.ResolveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	content := benchText(size)
	// Replace an existing file each time (the common case: diff basis read,
	// permission bits kept).
	if _, err := p.WriteText(context.Background(), tg, content, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.WriteText(context.Background(), tg, content, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteText4KiB replaces a 4 KiB file.
func BenchmarkWriteText4KiB(b *testing.B) { benchmarkWrite(b, 4<<10) }

// BenchmarkWriteText16MiB replaces a 16 MiB file (above the default diff-basis
// bound, so no basis is read).
func BenchmarkWriteText16MiB(b *testing.B) { benchmarkWrite(b, 16<<20) }

// BenchmarkEditText4KiB replaces one unique line in a 4 KiB file.
func BenchmarkEditText4KiB(b *testing.B) { benchmarkEdit(b, 4<<10, "\n") }

// BenchmarkEditText4KiBCRLF is BenchmarkEditText4KiB on a CRLF file.
func BenchmarkEditText4KiBCRLF(b *testing.B) { benchmarkEdit(b, 4<<10, "\r\n") }

// BenchmarkEditText16MiB replaces one unique line in a 16 MiB file.
func BenchmarkEditText16MiB(b *testing.B) { benchmarkEdit(b, 16<<20, "\n") }

// BenchmarkEditText16MiBCRLF is BenchmarkEditText16MiB on a CRLF file.
func BenchmarkEditText16MiBCRLF(b *testing.B) { benchmarkEdit(b, 16<<20, "\r\n") }

// benchmarkEdit edits the last line of a file of size bytes of benchText lines
// ending in eol, flipping "MARKER-0" and "MARKER-1".
func benchmarkEdit(b *testing.B, size int, eol string) {
	p, _ := benchProvider(b)
	tg, err := p.Resolve(context.Background(), "bench.txt", fs.ResolveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	last := "MARKER-0" + eol
	content := strings.ReplaceAll(benchText(size-len(last)), "\n", eol) + last
	if _, err := p.WriteText(context.Background(), tg, content, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	marker := [2]string{"MARKER-0", "MARKER-1"}
	i := 0
	for b.Loop() {
		req := fs.EditRequest{OldString: marker[i%2], NewString: marker[(i+1)%2]}
		if _, err := p.EditText(context.Background(), tg, req, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
