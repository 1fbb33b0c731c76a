package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// BenchmarkCreateInLargeDirectory creates a new file in a directory of 100,000 entries: each
// iteration is a new target, so a write path that lists the directory (a per-target residue sweep)
// pays for the whole listing every time.
func BenchmarkCreateInLargeDirectory(b *testing.B) {
	p, dir := benchProvider(b)
	big := filepath.Join(dir, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 100_000 {
		f, err := os.Create(filepath.Join(big, "entry-"+strconv.Itoa(i)))
		if err != nil {
			b.Fatal(err)
		}
		_ = f.Close()
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tg, err := p.Resolve(context.Background(), "big/new-"+strconv.Itoa(i), fs.ResolveOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.WriteText(context.Background(), tg, "x\n", nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
