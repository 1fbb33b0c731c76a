package hostfs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadPrior(t *testing.T) {
	dir := tempDir(t)
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	str := func(s string) *string { return &s }
	cases := []struct {
		name      string
		path      string
		max       int64
		afterStat func(path string)
		basis     *string
		bom       bool
	}{
		{"strictly below the bound", file("a", "a\r\nb"), 5, nil, str("a\nb"), false},
		{"at the bound", file("b", "a\r\nb"), 4, nil, nil, false},
		{"measured on the opened descriptor", file("c", "123456789"), 8, nil, nil, false},
		{"shrinks after fstat", file("d", "abcdef"), 8, func(p string) { require.NoError(t, os.WriteFile(p, []byte("abc"), 0o644)) }, nil, false},
		{"grows after fstat", file("e", "abcdef"), 32, func(p string) { require.NoError(t, os.WriteFile(p, []byte("abcdef-grown"), 0o644)) }, nil, false},
		{"vanished", filepath.Join(dir, "missing"), 32, nil, nil, false},
		{"binary", file("f", "h\x00i"), 8, nil, nil, false},
		{"invalid UTF-8", file("g", "h\xffi"), 8, nil, nil, false},
		{"BOM stripped and reported", file("h", "\uFEFFx\r\n"), 32, nil, str("x\n"), true},
		{"BOM reported when declined for size", file("i", "\uFEFFlong text"), 4, nil, nil, true},
		{"BOM reported for a binary file", file("j", "\uFEFF\x00"), 32, nil, nil, true},
		{"directory", dir, 32, nil, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var hook func()
			if tc.afterStat != nil {
				hook = func() { tc.afterStat(tc.path) }
			}
			prior, err := readPriorHooked(context.Background(), tc.path, tc.max, true, hook)
			require.NoError(t, err)
			assert.Equal(t, tc.basis, prior.basis)
			assert.Equal(t, tc.bom, prior.bom)
		})
	}
	t.Run("sniff only ignores the context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		prior, err := readPrior(ctx, file("k", "\uFEFFx"), 32, false)
		require.NoError(t, err)
		assert.Nil(t, prior.basis)
		assert.True(t, prior.bom)
	})
	t.Run("cancellation after fstat propagates as read aborted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := readPriorHooked(ctx, file("l", "text"), 32, true, cancel)
		require.Error(t, err)
		assert.Equal(t, "read aborted", err.Error())
	})
}
