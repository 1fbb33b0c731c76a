package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// BenchmarkReadTextSmallUTF8 reads a 4 KiB UTF-8 file whole: the cost of deciding its charset
// (a look for a BOM, the rules, the .editorconfig files up to the root) on the common path.
func BenchmarkReadTextSmallUTF8(b *testing.B) {
	dir := b.TempDir()
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	require.NoError(b, err)
	path := filepath.Join(dir, "a", "b", "c.txt")
	require.NoError(b, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(b, os.WriteFile(path, []byte(strings.Repeat("hello world\n", 340)), 0o644))
	tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
	require.NoError(b, err)
	for b.Loop() {
		if _, err := p.ReadText(context.Background(), tg); err != nil {
			b.Fatal(err)
		}
	}
}
