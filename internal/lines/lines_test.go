package lines_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/lines"
)

// readAll returns the lines of in, with "<too long>" in place of each skipped line.
func readAll(t testing.TB, in io.Reader, max int) []string {
	t.Helper()
	r := lines.NewReader(in, max)
	var out []string
	for {
		line, err := r.Next()
		if errors.Is(err, lines.ErrTooLong) {
			out = append(out, "<too long>")
			continue
		}
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		out = append(out, string(line))
	}
}

// oracle splits text the way Reader must: on "\n", a last unterminated line kept, lines over max
// replaced.
func oracle(text string, max int) []string {
	var out []string
	parts := strings.Split(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for _, p := range parts {
		if len(p) > max {
			p = "<too long>"
		}
		out = append(out, p)
	}
	return out
}

func TestReaderSplitsAndSkips(t *testing.T) {
	big := strings.Repeat("x", 200<<10) // beyond the read buffer
	cases := []struct {
		name, text string
		max        int
	}{
		{"lines", "a\nbb\n\nccc", 10},
		{"exactly max", "abcde\nabcdef\nab", 5},
		{"long lines within the limit", big + "\n" + big, 1 << 20},
		{"a long line over the limit", "a\n" + big + "\nb\n", 100 << 10},
		{"over the limit at the end", "a\n" + big, 100 << 10},
		{"empty", "", 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := oracle(tc.text, tc.max)
			assert.Equal(t, want, readAll(t, strings.NewReader(tc.text), tc.max))
			assert.Equal(t, want, readAll(t, iotest.OneByteReader(strings.NewReader(tc.text)), tc.max), "byte by byte")
		})
	}
}

func TestReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := lines.NewReader(io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(boom)), 10)
	line, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "a", string(line))
	_, err = r.Next()
	assert.ErrorIs(t, err, boom)
}

func TestTrimJSON(t *testing.T) {
	assert.Equal(t, `{"a":1}`, string(lines.TrimJSON([]byte("\xef\xbb\xbf "+`{"a":1}`+" \r"))))
	assert.Empty(t, lines.TrimJSON([]byte(" \t\r")))
}

func FuzzReader(f *testing.F) {
	f.Add("a\nb\n", uint8(3), uint8(1))
	f.Add(strings.Repeat("z", 300)+"\nq", uint8(10), uint8(7))
	f.Fuzz(func(t *testing.T, text string, max, chunk uint8) {
		m := int(max%64) + 1
		in := io.Reader(strings.NewReader(text))
		if chunk%2 == 0 {
			in = iotest.HalfReader(in)
		}
		got := readAll(t, in, m)
		if want := oracle(text, m); !equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

func equal(a, b []string) bool {
	return bytes.Equal([]byte(strings.Join(a, "\x00")), []byte(strings.Join(b, "\x00"))) && len(a) == len(b)
}
