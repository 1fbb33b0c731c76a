package jstext_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/internal/jstext"
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
		assert.Equal(t, want, jstext.Number(f), "%v", f)
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
		got, err := strconv.ParseFloat(jstext.Number(v), 64)
		if err != nil || got != v && !(v == 0 && got == 0) {
			t.Fatalf("Number(%v) = %q reads back as %v (%v)", v, jstext.Number(v), got, err)
		}
	})
}

func TestBlankAndTrim(t *testing.T) {
	assert.True(t, jstext.IsBlank(" \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"))
	assert.False(t, jstext.IsBlank("\u0085"), "NEL is not JavaScript whitespace")
	assert.False(t, jstext.IsBlank("\u200b"), "ZWSP is not JavaScript whitespace")
	for _, s := range []string{"a", " a ", "\u180e", "\x00"} {
		assert.False(t, jstext.IsBlank(s), "%q is not trimmed by JavaScript", s)
	}
	assert.True(t, jstext.IsBlank(""))
	assert.Equal(t, "a b", jstext.Trim("\ufeff a b \u3000"))
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
		assert.Equal(t, want, jstext.Quote(s), "%q", s)
	}
}

func TestIsInteger(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -7, 1 << 53, 1e300, -1e300} {
		assert.True(t, jstext.IsInteger(f), "%v", f)
	}
	for _, f := range []float64{0.5, -1.25, 1e-300, math.NaN(), math.Inf(1), math.Inf(-1)} {
		assert.False(t, jstext.IsInteger(f), "%v", f)
	}
}
