package charset_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/internal/charset"
)

// A .editorconfig is read only when it is a regular file of at most EditorConfigMaxBytes, opened
// without following a link or blocking; anything else declares nothing (docs/encodings.md,
// "Bounds of .editorconfig"). Each case would hang, read without end or allocate until the
// process dies on a reader that opens what the path names and expands numeric ranges.
func TestEditorConfigHostileFiles(t *testing.T) {
	latin := "root = true\n[*]\ncharset = latin1\n"
	cases := map[string]func(t *testing.T, ec string){
		"fifo": func(t *testing.T, ec string) {
			require.NoError(t, syscall.Mkfifo(ec, 0o644))
		},
		"symlink to /dev/zero": func(t *testing.T, ec string) {
			require.NoError(t, os.Symlink("/dev/zero", ec))
		},
		"symlink to a regular file": func(t *testing.T, ec string) {
			real := filepath.Join(filepath.Dir(ec), "real")
			write(t, real, latin)
			require.NoError(t, os.Symlink(real, ec))
		},
		"over the size limit": func(t *testing.T, ec string) {
			pad := strings.Repeat("# padding\n", charset.EditorConfigMaxBytes/10+1)
			write(t, ec, latin+pad)
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			plant(t, filepath.Join(dir, ".editorconfig"))
			r, err := charset.NewResolver(dir, nil)
			require.NoError(t, err)
			d := r.Declared(filepath.Join(dir, "a.txt"))
			require.Equal(t, charset.SourceDefault, d.Source)
		})
	}
}

// A numeric range is matched by the number's digits, whatever its width: the whole int64 range,
// negative bounds, bounds written with a sign, a range given high to low.
func TestEditorConfigNumericRanges(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".editorconfig"), "root = true\n"+
		"[a{0..9223372036854775807}]\ncharset = latin1\n"+
		"[b{-20..+15}]\ncharset = utf-16le\n"+
		"[c{2000000..0}]\ncharset = utf-16be\n")
	r, err := charset.NewResolver(dir, nil)
	require.NoError(t, err)
	name := func(n string) string { return r.Declared(filepath.Join(dir, n)).Charset.Name() }
	for n, want := range map[string]string{
		"a0": "iso-8859-1", "a9223372036854775807": "iso-8859-1", "a42": "iso-8859-1",
		"a9223372036854775808": "utf-8", "a-1": "utf-8", "a042": "utf-8", "a": "utf-8",
		"b-20": "utf-16le", "b-1": "utf-16le", "b0": "utf-16le", "b15": "utf-16le",
		"b-21": "utf-8", "b16": "utf-8", "b-0": "utf-8", "b+3": "utf-8",
		"c0": "utf-16be", "c1999999": "utf-16be", "c2000000": "utf-16be", "c2000001": "utf-8",
	} {
		require.Equal(t, want, name(n), n)
	}
}

// What a .editorconfig ignores is logged once per version of the file; a changed file is read
// again (the cache follows the file's identity, size and times).
func TestEditorConfigIgnoredLoggedOnceAndCacheFollowsTheFile(t *testing.T) {
	dir := t.TempDir()
	ec := filepath.Join(dir, ".editorconfig")
	long := "[" + strings.Repeat("x", 5000) + "]\ncharset = utf-16le\n"
	write(t, ec, "root = true\n"+long+"[*]\ncharset = latin1\n")
	core, logs := observer.New(zap.InfoLevel)
	r, err := charset.NewResolver(dir, nil)
	require.NoError(t, err)
	r.SetLogger(zap.New(core))
	for range 3 {
		require.Equal(t, "iso-8859-1", r.Declared(filepath.Join(dir, "a.txt")).Charset.Name())
	}
	require.Equal(t, 1, logs.Len())
	require.Equal(t, ec, logs.All()[0].ContextMap()["path"])

	write(t, ec, "root = true\n[*]\ncharset = utf-16be\n")
	require.Equal(t, "utf-16be", r.Declared(filepath.Join(dir, "a.txt")).Charset.Name())
	require.Equal(t, 1, logs.Len())

	require.NoError(t, os.Remove(ec))
	require.NoError(t, syscall.Mkfifo(ec, 0o644))
	for range 2 {
		require.Equal(t, charset.SourceDefault, r.Declared(filepath.Join(dir, "a.txt")).Source)
	}
	require.Equal(t, 2, logs.Len())
	require.Contains(t, logs.All()[1].ContextMap()["ignored"], "the whole file: not a regular file")
}
