package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// stdlib is json.Marshal's encoding of s (HTML escaping on): the output AppendString must match.
func stdlib(t testing.TB, s string) string {
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		"", "a", "plain ascii text", "<html> & 'quotes'", `say "hi"\now`,
		"\b\f\n\r\t\x00\x01\x1f\x7f", "line 1\nline 2\r\n",
		"é, ü, 中文, 😀", "\u2028\u2029", "a\u2028b\u2029c", "\xff", "ab\xc3", "\xe2\x80", "\xed\xa0\x80",
		"\ufffd", "12345678\n", "1234567\"", "123456789012345\\", "\x80234567", strings.Repeat("x", 64) + "\x1b",
	}
	for i := 0; i < 256; i++ { // every byte at every position of a word
		for pos := 0; pos < 9; pos++ {
			cases = append(cases, strings.Repeat("a", pos)+string([]byte{byte(i)})+strings.Repeat("b", 9-pos))
		}
	}
	for _, s := range cases {
		require.Equal(t, stdlib(t, s), string(jsonscan.AppendString(nil, s)), "%q", s)
	}
}

func TestAppendKeepsDst(t *testing.T) {
	require.Equal(t, `x:"a\nb"`, string(jsonscan.AppendString([]byte("x:"), "a\nb")))
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "line 1\nline 2", "\"\\\x00\u2028\xff", "中文😀\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(jsonscan.AppendString(nil, s)), stdlib(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json gives %s", s, got, want)
		}
	})
}

// BenchmarkAppendString encodes the text of a 2,000-line read window (a line break every 30 bytes), and
// a text with no byte to escape, with AppendString and with encoding/json's Encoder.
func BenchmarkAppendString(b *testing.B) {
	var w strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&w, "%d: line %05d abcdefghij\n", i, i)
	}
	texts := map[string]string{"read-window": w.String(), "no-escapes": strings.Repeat("abcdefgh", 8000)}
	for _, name := range []string{"read-window", "no-escapes"} {
		s := texts[name]
		b.Run(name+"/jsonscan", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			dst := make([]byte, 0, 2*len(s))
			for b.Loop() {
				dst = jsonscan.AppendString(dst[:0], s)
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			var buf bytes.Buffer
			buf.Grow(2 * len(s))
			enc := json.NewEncoder(&buf)
			for b.Loop() {
				buf.Reset()
				if err := enc.Encode(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
