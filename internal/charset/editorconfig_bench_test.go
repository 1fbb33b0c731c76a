package charset_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/charset"
)

// BenchmarkEditorConfigHostile is the cost of one charset decision under a hostile .editorconfig
// (issue figures: run with -benchtime=1x -benchmem; a fresh Resolver per op, so nothing cached).
func BenchmarkEditorConfigHostile(b *testing.B) {
	var big strings.Builder
	for i := 0; big.Len() < 8<<20; i++ {
		fmt.Fprintf(&big, "[*.x%d]\ncharset = latin1\n", i)
	}
	var widest strings.Builder
	widest.WriteString("root = true\n")
	for widest.Len() < charset.EditorConfigMaxBytes-100 {
		widest.WriteString("[{0..9223372036854775807}x]\ncharset = latin1\n")
	}
	for name, text := range map[string]string{
		"64KiB-of-int64-ranges": widest.String(),
		"range-2000000":         "root = true\n[{0..2000000}]\ncharset = latin1\n",
		"8MiB":                  "root = true\n" + big.String(),
	} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			write(b, filepath.Join(dir, ".editorconfig"), text)
			for b.Loop() {
				r, _ := charset.NewResolver(dir, nil)
				r.Declared(filepath.Join(dir, "1234"))
			}
		})
	}
	// A read once the file is parsed: what each later read of the same version costs.
	b.Run("64KiB-of-int64-ranges-cached", func(b *testing.B) {
		dir := b.TempDir()
		write(b, filepath.Join(dir, ".editorconfig"), widest.String())
		r, _ := charset.NewResolver(dir, nil)
		r.Declared(filepath.Join(dir, "1234")) // parsed here, outside the timing
		for b.Loop() {
			r.Declared(filepath.Join(dir, "1234"))
		}
	})
}
