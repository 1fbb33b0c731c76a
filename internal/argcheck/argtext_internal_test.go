package argcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonLiteral writes s as a JSON string literal: a rune whose bit in escapes
// is set (cycling) as \u escapes (a surrogate pair above U+FFFF, in upper or
// lower case hex by the next bit), quote, backslash and control bytes
// escaped, every other byte, an invalid one included, as it is; with lone
// set, the surrogate escape lone is inserted before the rune at index pos.
func jsonLiteral(s string, escapes uint64, lone rune, pos int) string {
	var b strings.Builder
	b.WriteByte('"')
	bit := func(i int) bool { return escapes>>(uint(i)%64)&1 == 1 }
	i := 0 // the rune's index
	for off := 0; off < len(s); i++ {
		if i == pos && lone != 0 {
			fmt.Fprintf(&b, `\u%04x`, lone)
		}
		r, size := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(s[off]) // an invalid byte, as it is
			off++
			continue
		}
		off += size
		hex := "\\u%04x"
		if bit(i + 1) {
			hex = "\\u%04X"
		}
		switch {
		case bit(i) && r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, hex+hex, hi, lo)
		case bit(i) || r < 0x20:
			fmt.Fprintf(&b, hex, r)
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		default:
			b.WriteRune(r)
		}
	}
	if pos >= i && lone != 0 {
		fmt.Fprintf(&b, `\u%04x`, lone)
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzCheckArgsText builds JSON whose every string's text is known (s, any
// bytes, spelled with a random mix of raw bytes and escapes, maybe with one
// lone surrogate escape inserted) and checks the verdict of Snapshot and of
// the separate pass it replaced (checkArgsText), as a value, a key and nested;
// valid text must also decode back to s. Arbitrary valid JSON (raw) never
// makes them panic.
func FuzzCheckArgsText(f *testing.F) {
	f.Add("plain", uint64(0), uint16(0), uint8(0), []byte(`{"a":"b"}`))
	f.Add("é😀x", uint64(0b1011), uint16(0), uint8(0), []byte(`"\ud800"`))
	f.Add("a\xffb", uint64(1), uint16(0), uint8(0), []byte(`["\\ud800"]`))
	f.Add("ab", uint64(0), uint16(0xD834), uint8(1), []byte(`{"\udfff":1}`))
	f.Add("😀", uint64(1), uint16(0xDE00), uint8(1), []byte("{\"k\":\"\xc3\"}"))
	f.Add("\"\\\n", uint64(2), uint16(0xDBFF), uint8(9), []byte(`[]`))
	f.Fuzz(func(t *testing.T, s string, escapes uint64, lone uint16, pos uint8, raw []byte) {
		if json.Valid(raw) {
			_ = checkArgsText(raw)
			_, _, _ = Snapshot(json.RawMessage(raw))
		}
		loneRune := rune(0)
		if lone != 0 {
			loneRune = 0xD800 + rune(lone)%0x800
		}
		lit := jsonLiteral(s, escapes, loneRune, int(pos))
		wantBad := !utf8.ValidString(s) || loneRune != 0
		for _, doc := range []string{`{"k":` + lit + `}`, `{` + lit + `:1}`, `{"a":[0,{"b":` + lit + `}]}`, lit} {
			if !json.Valid([]byte(doc)) {
				t.Fatalf("generator: %q is not JSON", doc)
			}
			err := checkArgsText([]byte(doc))
			if (err != nil) != wantBad {
				t.Fatalf("checkArgsText(%q) = %v; want refused %v", doc, err, wantBad)
			}
			_, _, err = Snapshot(json.RawMessage(doc))
			var te *TextError
			if errors.As(err, &te) != wantBad || (!wantBad && err != nil) {
				t.Fatalf("Snapshot(%q) = %v; want refused %v", doc, err, wantBad)
			}
			if wantBad {
				continue
			}
			var got any
			if err := json.Unmarshal([]byte(`[`+lit+`]`), &got); err != nil || got.([]any)[0] != s {
				t.Fatalf("generator: %q decodes to %q, want %q", lit, got, s)
			}
		}
	})
}
