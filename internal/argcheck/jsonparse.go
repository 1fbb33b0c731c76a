package argcheck

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting like encoding/json does.
const maxDepth = 10000

// The arguments of every call are parsed once, for the schema check, into a tree that keeps key
// order (undeclared keys are reported in input order). This parser is written by hand
// because encoding/json costs about twice the time and allocations on a call's small arguments
// (BenchmarkParseArgs); FuzzParseJSONAgreesWithEncodingJSON holds it to encoding/json.

// Parse parses exactly one JSON value (RFC 8259, surrounding whitespace allowed). Invalid text,
// numbers outside float64 range and negative zero fail with ErrNotLossless (such arguments cannot
// be kept as sent). Invalid UTF-8 and lone surrogates in strings become U+FFFD, as encoding/json
// does (Snapshot refuses such arguments).
func Parse(data []byte) (*Value, error) {
	p := parser{data: data}
	return p.parse()
}

// parse parses p.data (see Parse), noting in p what Snapshot needs to know of the text.
func (p *parser) parse() (*Value, error) {
	p.skip()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i != len(p.data) {
		return nil, ErrNotLossless
	}
	return v, nil
}

type parser struct {
	data []byte
	i    int
	// spaced reports insignificant whitespace skipped: without it the text is compact.
	spaced bool
	// badText reports a string or key that is not valid UTF-8 text as written (invalid bytes,
	// or an escaped surrogate without its pair), the ones findArgsText reports.
	badText bool
}

func (p *parser) skip() {
	start := p.i
	for p.i < len(p.data) && (p.data[p.i] == ' ' || p.data[p.i] == '\t' || p.data[p.i] == '\n' || p.data[p.i] == '\r') {
		p.i++
	}
	if p.i > start {
		p.spaced = true
	}
}

func (p *parser) literal(word string) bool {
	if len(p.data)-p.i >= len(word) && string(p.data[p.i:p.i+len(word)]) == word {
		p.i += len(word)
		return true
	}
	return false
}

// value parses one value and keeps its text (Value.Decode decodes what Value does not hold from it).
func (p *parser) value(depth int) (*Value, error) {
	start := p.i
	v, err := p.parseValue(depth)
	if err != nil {
		return nil, err
	}
	v.raw = p.data[start:p.i:p.i]
	return v, nil
}

func (p *parser) parseValue(depth int) (*Value, error) {
	if p.i >= len(p.data) || depth > maxDepth {
		return nil, ErrNotLossless
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		str, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{kind: jString, str: str}, nil
	case c == 't' && p.literal("true"):
		return &Value{kind: jBool, b: true}, nil
	case c == 'f' && p.literal("false"):
		return &Value{kind: jBool}, nil
	case c == 'n' && p.literal("null"):
		return &Value{kind: jNull}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, ErrNotLossless
}

func (p *parser) object(depth int) (*Value, error) {
	p.i++ // {
	v := &Value{kind: jObject, obj: map[string]*Value{}}
	p.skip()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.skip()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, ErrNotLossless
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skip()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, ErrNotLossless
		}
		p.i++
		p.skip()
		item, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.set(key, item)
		done, err := p.next('}')
		if err != nil {
			return nil, err
		}
		if done {
			return v, nil
		}
	}
}

func (p *parser) array(depth int) (*Value, error) {
	p.i++ // [
	v := &Value{kind: jArray, arr: []*Value{}}
	p.skip()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		p.skip()
		item, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, item)
		done, err := p.next(']')
		if err != nil {
			return nil, err
		}
		if done {
			return v, nil
		}
	}
}

// next reads what follows a member of an object or array: a comma (more members follow) or the
// closing delimiter (done).
func (p *parser) next(closing byte) (done bool, err error) {
	p.skip()
	if p.i >= len(p.data) {
		return false, ErrNotLossless
	}
	switch p.data[p.i] {
	case ',':
		p.i++
		return false, nil
	case closing:
		p.i++
		return true, nil
	}
	return false, ErrNotLossless
}

func (p *parser) number() (*Value, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.data[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.data) && p.data[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, ErrNotLossless
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, ErrNotLossless
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, ErrNotLossless
		}
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.i]), 64)
	if err != nil || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
		return nil, ErrNotLossless
	}
	return &Value{kind: jNumber, num: f}, nil
}

// str parses a string literal starting at the opening quote.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, the bytes are the string.
	for p.i < len(p.data) && plainStringByte[p.data[p.i]] {
		p.i++
	}
	if p.i < len(p.data) && p.data[p.i] == '"' {
		s := p.data[start:p.i]
		p.i++
		if utf8.Valid(s) {
			return string(s), nil
		}
		p.badText = true
		return fixUTF8(string(s)), nil
	}
	var sb strings.Builder
	if end := p.closingQuote(p.i); end >= 0 {
		sb.Grow(end - start) // escapes only shrink: the decoded text fits
	}
	sb.Write(p.data[start:p.i])
	for p.i < len(p.data) {
		// Copy the run of plain bytes up to the next quote, backslash or
		// control byte in one write.
		run := p.i
		for p.i < len(p.data) && plainStringByte[p.data[p.i]] {
			p.i++
		}
		sb.Write(p.data[run:p.i])
		if p.i >= len(p.data) {
			break
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			out := sb.String()
			if !utf8.ValidString(out) { // escapes write whole runes: the raw bytes are invalid
				p.badText = true
				out = fixUTF8(out)
			}
			return out, nil
		case c < 0x20:
			return "", ErrNotLossless
		case c == '\\':
			p.i++
			if p.i >= len(p.data) {
				return "", ErrNotLossless
			}
			e := p.data[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", ErrNotLossless
				}
				if utf16.IsSurrogate(r) {
					save := p.i
					if p.literal("\\u") {
						if r2, ok2 := p.hex4(); ok2 {
							if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
								sb.WriteRune(d)
								continue
							}
						}
					}
					p.i = save
					p.badText = true
					r = utf8.RuneError
				}
				sb.WriteRune(r)
			default:
				return "", ErrNotLossless
			}
		}
	}
	return "", ErrNotLossless
}

// closingQuote returns the index of the first unescaped quote at or after i
// (a quote preceded by an even run of backslashes), or -1.
func (p *parser) closingQuote(i int) int {
	for {
		q := bytes.IndexByte(p.data[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		backslashes := 0
		for j := q - 1; j >= 0 && p.data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// plainStringByte marks the bytes a string literal holds as they are: all but
// the quote, the backslash and the control bytes.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// fixUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func fixUTF8(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

// set adds a member the way JSON.parse does: first position, last value.
func (v *Value) set(key string, item *Value) {
	if _, seen := v.obj[key]; !seen {
		v.keys = append(v.keys, key)
	}
	v.obj[key] = item
}
