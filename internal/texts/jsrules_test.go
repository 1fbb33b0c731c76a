package texts_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/internal/texts"
)

// The values JavaScript prints (node -p 'String(x)').
func TestNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -1: "-1", 1.5: "1.5", 0.1: "0.1", 100: "100",
		1e21: "1e+21", 1e20: "100000000000000000000", 123456789012345680000: "123456789012345680000",
		1.5e21: "1.5e+21", 1e-6: "0.000001", 1e-7: "1e-7", 1.5e-7: "1.5e-7", 0.000123: "0.000123",
		9007199254740993: "9007199254740992", 1e300: "1e+300", -2.5e-10: "-2.5e-10", 5e-324: "5e-324",
		math.MaxFloat64: "1.7976931348623157e+308",
	} {
		assert.Equal(t, want, texts.Number(f), "%v", f)
	}
}

func FuzzNumber(f *testing.F) {
	for _, v := range []float64{0, 1, 1.5, 1e21, 1e-7, 123.456, -9.99e-300} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		got, err := strconv.ParseFloat(texts.Number(v), 64)
		if err != nil || got != v && !(v == 0 && got == 0) {
			t.Fatalf("Number(%v) = %q reads back as %v (%v)", v, texts.Number(v), got, err)
		}
	})
}

func TestBlankAndTrim(t *testing.T) {
	assert.True(t, texts.IsBlank(" \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"))
	assert.False(t, texts.IsBlank("\u0085"), "NEL is not JavaScript whitespace")
	assert.False(t, texts.IsBlank("\u200b"), "ZWSP is not JavaScript whitespace")
	for _, s := range []string{"a", " a ", "\u180e", "\x00"} {
		assert.False(t, texts.IsBlank(s), "%q is not trimmed by JavaScript", s)
	}
	assert.True(t, texts.IsBlank(""))
	assert.Equal(t, "a b", texts.Trim("\ufeff a b \u3000"))
}

// JSON.stringify of strings (node -p 'JSON.stringify(s)').
func TestQuote(t *testing.T) {
	for s, want := range map[string]string{
		"":             `""`,
		`a "q" \ b`:    `"a \"q\" \\ b"`,
		"\b\f\n\r\t":   `"\b\f\n\r\t"`,
		"\x00\x1f\x7f": "\"\\u0000\\u001f\x7f\"",
		"é ✓ \u2028 😀": "\"é ✓ \u2028 😀\"",
	} {
		assert.Equal(t, want, texts.Quote(s), "%q", s)
	}
	// Paths as the sandbox policy text embeds them: '<', '>', '&', U+2028 and U+2029 kept as they
	// are, invalid UTF-8 as U+FFFD.
	paths := map[string]string{
		"/ws":                `"/ws"`,
		`/a "b" \c`:          `"/a \"b\" \\c"`,
		"/x<y>&z":            `"/x<y>&z"`,
		"/l\u2028p\u2029":    "\"/l\u2028p\u2029\"",
		"\b\t\n\f\r\x00\x1f": `"\b\t\n\f\r\u0000\u001f"`,
		"\x7f/é/日本":          "\"\x7f/é/日本\"",
		"a\xffb":             "\"a\uFFFDb\"",
		"":                   `""`,
	}
	for in, want := range paths {
		assert.Equal(t, want, texts.Quote(in), "%q", in)
	}
}

func TestIsInteger(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -7, 1 << 53, 1e300, -1e300} {
		assert.True(t, texts.IsInteger(f), "%v", f)
	}
	for _, f := range []float64{0.5, -1.25, 1e-300, math.NaN(), math.Inf(1), math.Inf(-1)} {
		assert.False(t, texts.IsInteger(f), "%v", f)
	}
}

// FuzzQuote: the output is one valid JSON string that decodes to the input (each invalid
// UTF-8 byte read as U+FFFD), with no raw control character and no escape JavaScript would not
// produce.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "/ws", "a\"b\\c", "\x00\x1f\x7f", "\u2028<&>", "a\xff\xfeb", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := texts.Quote(s)
		var back string
		if err := json.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("invalid JSON %q: %v", out, err)
		}
		if want := string([]rune(s)); back != want {
			t.Fatalf("round trip: got %q want %q", back, want)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 output %q", out)
		}
		for _, c := range []byte(out) {
			if c < 0x20 {
				t.Fatalf("raw control byte in %q", out)
			}
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`, `\/`} {
			if strings.Contains(out, esc) && !strings.Contains(s, esc) {
				t.Fatalf("non-JavaScript escape %s in %q", esc, out)
			}
		}
	})
}
