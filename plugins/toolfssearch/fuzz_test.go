package toolfssearch_test

import (
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
)

// FuzzInclude: the include check never panics; an accepted include is not blank, does not start
// with '!' and holds no comma outside braces; and compiling it either works or is a pattern error.
func FuzzInclude(f *testing.F) {
	for _, s := range []string{"*.{ts,tsx}", "*.ts,*.js", "!x", " ", "}{,", "{a,{b,c}}", "src/**/*.go", "[a-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, include string) {
		if err := toolfssearch.ValidateInclude(include); err != nil {
			return
		}
		if jsBlank(include) || strings.HasPrefix(include, "!") {
			t.Fatalf("accepted %q", include)
		}
		depth := 0
		for _, c := range include {
			switch c {
			case '{':
				depth++
			case '}':
				depth = max(0, depth-1)
			case ',':
				if depth == 0 {
					t.Fatalf("accepted the list %q", include)
				}
			}
		}
		if g, err := search.CompileGlob(include); err == nil {
			_ = g.Match("a/b.ts")
		}
	})
}

// jsBlank reports whether JavaScript's String.prototype.trim leaves nothing of s: every rune is
// WhiteSpace or a LineTerminator of ECMA-262 (not Go's unicode.IsSpace, which counts U+0085 and
// leaves out U+FEFF).
func jsBlank(s string) bool {
	for _, r := range s {
		switch {
		case r == '\t', r == '\n', r == '\v', r == '\f', r == '\r', r == ' ', r == 0xA0, r == 0x1680,
			r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		default:
			return false
		}
	}
	return true
}
