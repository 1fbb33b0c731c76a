package termtext_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/internal/termtext"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path.txt":           "plain/path.txt",
		"é ü 日本 \\ x":              "é ü 日本 \\ x",
		"a\x1b]0;pwned\x07b":       `a\x1b]0;pwned\x07b`,
		"x\r\nforged row\tz":       `x\r\nforged row\tz`,
		"\u202egnp.exe":            `\u202egnp.exe`,
		"bad\xffbyte":              `bad\xffbyte`,
		"\x1b[2J\x1b[H":            `\x1b[2J\x1b[H`,
		"sep\u2028line\U000e0001x": `sep\u2028line\U000e0001x`,
	} {
		assert.Equal(t, want, termtext.Escape(in), "%q", in)
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("a\x1b[31mb\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := termtext.Escape(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("control %q left in %q", r, out)
			}
		}
	})
}
