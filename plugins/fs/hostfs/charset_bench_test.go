package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/japanese"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// BenchmarkEditShiftJIS1MiB edits one word in the middle of a 1 MiB Shift_JIS file (decode,
// round-trip check, match, re-encode, publish) against the same edit of its UTF-8 twin.
func BenchmarkEditShiftJIS1MiB(b *testing.B) {
	line := "日本語のテキストです。行の内容は十分に長い。\n"
	var sb strings.Builder
	marked := false
	for sb.Len() < 1<<20 {
		if sb.Len() >= 1<<19 && !marked {
			sb.WriteString("ここに目印がある\n")
			marked = true
		}
		sb.WriteString(line)
	}
	text := sb.String()
	sjisText, err := japanese.ShiftJIS.NewEncoder().String(text)
	require.NoError(b, err)
	for _, bc := range []struct{ name, file, data string }{
		{"utf-8", "twin.txt", text},
		{"shift_jis", "file.sjis", sjisText},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			p, err := hostfs.New(hostfs.Config{Cwd: dir, Encodings: []charset.Rule{{Glob: "*.sjis", Charset: "shift_jis"}}}, nil)
			require.NoError(b, err)
			path := filepath.Join(dir, bc.file)
			require.NoError(b, os.WriteFile(path, []byte(bc.data), 0o644))
			tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
			require.NoError(b, err)
			b.SetBytes(int64(len(bc.data)))
			words := [2]string{"目印", "しるし"}
			i := 0
			for b.Loop() {
				if _, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: words[i%2], NewString: words[(i+1)%2]}, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
