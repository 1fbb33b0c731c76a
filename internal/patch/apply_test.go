package patch_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/patch"
)

func chunk(old, new []string) patch.Chunk { return patch.Chunk{Old: old, New: new} }

func TestApplyKeepsBytesOutsideChunks(t *testing.T) {
	for name, c := range map[string]struct {
		raw    string
		chunks []patch.Chunk
		want   string
	}{
		"CRLF kept, new lines CRLF": {"a\r\nb\r\nc\r\n", []patch.Chunk{chunk([]string{"b"}, []string{"B", "B2"})}, "a\r\nB\r\nB2\r\nc\r\n"},
		"mixed breaks kept":         {"a\nb\r\nc\n", []patch.Chunk{chunk([]string{"c"}, []string{"C"})}, "a\nb\r\nC\n"},
		"no final break kept":       {"a\nb", []patch.Chunk{chunk([]string{"a"}, []string{"A"})}, "A\nb"},
		"replaced last line ends":   {"a\nb", []patch.Chunk{chunk([]string{"b"}, []string{"B"})}, "a\nB\n"},
		"append after no break":     {"a", []patch.Chunk{chunk(nil, []string{"z"})}, "a\nz\n"},
		"append at end":             {"a\nb\n", []patch.Chunk{chunk(nil, []string{"z"})}, "a\nb\nz\n"},
		"empty file append":         {"", []patch.Chunk{chunk(nil, []string{"z"})}, "z\n"},
		"lone CR kept":              {"a\rx\nb\n", []patch.Chunk{chunk([]string{"b"}, []string{"B"})}, "a\rx\nB\n"},
		"delete only":               {"1\n2\n3\n", []patch.Chunk{chunk([]string{"1", "2", "3"}, []string{"1", "3"})}, "1\n3\n"},
		"trailing empty old line":   {"a\nb\n", []patch.Chunk{chunk([]string{"b", ""}, []string{"c", ""})}, "a\nc\n"},
		"two chunks in order":       {"x\ny\nx\ny\n", []patch.Chunk{chunk([]string{"x"}, []string{"1"}), chunk([]string{"x"}, []string{"2"})}, "1\ny\n2\ny\n"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := patch.Apply(t.Context(), c.raw, c.chunks)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func TestApplyLocatingPasses(t *testing.T) {
	for name, c := range map[string]struct{ raw, old string }{
		"exact":             {"a\nfoo\n", "foo"},
		"trailing space":    {"a\nfoo  \t\n", "foo"},
		"surrounding space": {"a\n   foo \n", "foo"},
		"unicode dash":      {"a\nx \u2014 y\n", "x - y"},
		"unicode quotes":    {"a\n\u201chi\u201d \u2018x\u2019\n", `"hi" 'x'`},
		"nbsp":              {"a\nx\u00a0y\n", "x y"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := patch.Apply(t.Context(), c.raw, []patch.Chunk{chunk([]string{c.old}, []string{"NEW"})})
			require.NoError(t, err)
			require.Equal(t, "a\nNEW\n", got)
		})
	}
}

func TestApplyStrictestPassWins(t *testing.T) {
	// The exact match later in the file beats the whitespace-insensitive one earlier.
	got, err := patch.Apply(t.Context(), " foo\nfoo\n", []patch.Chunk{chunk([]string{"foo"}, []string{"X"})})
	require.NoError(t, err)
	require.Equal(t, " foo\nX\n", got)
}

func TestApplyContextSeeksForward(t *testing.T) {
	raw := "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 1\n}\n"
	c := patch.Chunk{Context: "func b() {", HasContext: true, Old: []string{"\treturn 1"}, New: []string{"\treturn 2"}}
	got, err := patch.Apply(t.Context(), raw, []patch.Chunk{c})
	require.NoError(t, err)
	require.Equal(t, "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 2\n}\n", got)
}

func TestApplyEndOfFile(t *testing.T) {
	c := chunk([]string{"x"}, []string{"y"})
	c.EOF = true
	got, err := patch.Apply(t.Context(), "x\nm\nx\n", []patch.Chunk{c})
	require.NoError(t, err)
	require.Equal(t, "x\nm\ny\n", got)
}

func TestApplyErrors(t *testing.T) {
	_, err := patch.Apply(t.Context(), "a\n", []patch.Chunk{{Line: 4, Old: []string{"zz", "yy"}}})
	var ae *patch.ApplyError
	require.True(t, errors.As(err, &ae))
	require.Equal(t, &patch.ApplyError{Chunk: 0, Line: 4, Expected: []string{"zz", "yy"}}, ae)

	_, err = patch.Apply(t.Context(), "a\n", []patch.Chunk{chunk([]string{"a"}, nil), {Line: 9, Context: "nope", HasContext: true, Old: []string{"a"}}})
	require.True(t, errors.As(err, &ae))
	require.Equal(t, 1, ae.Chunk)
	require.Equal(t, "failed to find context 'nope'", ae.Error())

	// A chunk is sought only after the previous one.
	_, err = patch.Apply(t.Context(), "a\nb\n", []patch.Chunk{chunk([]string{"b"}, nil), chunk([]string{"a"}, nil)})
	require.True(t, errors.As(err, &ae))
	require.Equal(t, 1, ae.Chunk)
}

// Locating chunks stops when the call's context is done (docs/apply_patch.md "Locating a chunk").
func TestApplyStopsOnCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	raw := strings.Repeat("x\n", 20_000)
	_, err := patch.Apply(ctx, raw, []patch.Chunk{chunk(append(slices.Repeat([]string{"x"}, 100), "y"), nil)})
	require.ErrorIs(t, err, context.Canceled)
}
