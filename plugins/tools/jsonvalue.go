package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jkind is the JSON type of a jval.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// jval is a parsed JSON value that keeps object key order (first occurrence,
// last value wins, as JSON.parse does) and the exact number literal.
type jval struct {
	kind jkind
	b    bool
	num  float64
	str  string
	arr  []*jval
	keys []string
	obj  map[string]*jval
}

// errNotLossless reports JSON that does not survive a lossless round trip:
// invalid text, a non-finite number, or negative zero.
var errNotLossless = errors.New("not lossless JSON")

// maxDepth bounds nesting like encoding/json does.
const maxDepth = 10000

// parseJSON parses exactly one JSON value (RFC 8259, surrounding whitespace
// allowed). Numbers outside float64 range and negative zero are rejected as
// not lossless, like the reference's snapshot. Invalid UTF-8 and lone
// surrogates in strings become U+FFFD, as encoding/json does.
func parseJSON(data []byte) (*jval, error) {
	p := parser{data: data}
	p.skip()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i != len(p.data) {
		return nil, errNotLossless
	}
	return v, nil
}

type parser struct {
	data []byte
	i    int
}

func (p *parser) skip() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) literal(word string) bool {
	if len(p.data)-p.i >= len(word) && string(p.data[p.i:p.i+len(word)]) == word {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (*jval, error) {
	if p.i >= len(p.data) || depth > maxDepth {
		return nil, errNotLossless
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
		return &jval{kind: jString, str: str}, nil
	case c == 't' && p.literal("true"):
		return &jval{kind: jBool, b: true}, nil
	case c == 'f' && p.literal("false"):
		return &jval{kind: jBool}, nil
	case c == 'n' && p.literal("null"):
		return &jval{kind: jNull}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, errNotLossless
}

func (p *parser) object(depth int) (*jval, error) {
	p.i++ // {
	v := &jval{kind: jObject, obj: map[string]*jval{}}
	p.skip()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.skip()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, errNotLossless
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skip()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, errNotLossless
		}
		p.i++
		p.skip()
		item, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, seen := v.obj[key]; !seen {
			v.keys = append(v.keys, key)
		}
		v.obj[key] = item
		p.skip()
		if p.i >= len(p.data) {
			return nil, errNotLossless
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return nil, errNotLossless
		}
	}
}

func (p *parser) array(depth int) (*jval, error) {
	p.i++ // [
	v := &jval{kind: jArray, arr: []*jval{}}
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
		p.skip()
		if p.i >= len(p.data) {
			return nil, errNotLossless
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return nil, errNotLossless
		}
	}
}

func (p *parser) number() (*jval, error) {
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
		return nil, errNotLossless
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, errNotLossless
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, errNotLossless
		}
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.i]), 64)
	if err != nil || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
		return nil, errNotLossless
	}
	return &jval{kind: jNumber, num: f}, nil
}

// str parses a string literal starting at the opening quote.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes and plain ASCII or valid UTF-8.
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := p.data[start:p.i]
			p.i++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return fixUTF8(string(s)), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	var sb strings.Builder
	sb.Write(p.data[start:p.i])
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			out := sb.String()
			if !utf8.ValidString(out) {
				out = fixUTF8(out)
			}
			return out, nil
		case c < 0x20:
			return "", errNotLossless
		case c == '\\':
			p.i++
			if p.i >= len(p.data) {
				return "", errNotLossless
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
					return "", errNotLossless
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
					r = utf8.RuneError
				}
				sb.WriteRune(r)
			default:
				return "", errNotLossless
			}
		default:
			sb.WriteByte(c)
			p.i++
		}
	}
	return "", errNotLossless
}

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

// snapshotArgs turns caller-supplied arguments into compact, lossless JSON
// text: json.RawMessage and []byte are taken as JSON text; anything
// else is encoded with encoding/json. nil fails (the reference rejects
// undefined arguments).
func snapshotArgs(args any) (json.RawMessage, *jval, error) {
	var data []byte
	switch a := args.(type) {
	case nil:
		return nil, nil, errNotLossless
	case json.RawMessage:
		data = a
	case []byte:
		data = a
	default:
		if rv := reflect.ValueOf(args); (rv.Kind() == reflect.Map || rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Slice) && rv.IsNil() {
			return nil, nil, errNotLossless
		}
		enc, err := json.Marshal(args)
		if err != nil {
			return nil, nil, err
		}
		data = enc
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, errNotLossless
	}
	v, err := parseJSON(data)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, nil, errNotLossless
	}
	return json.RawMessage(buf.Bytes()), v, nil
}

// fromGo converts a Go value into a jval without the lossless gate, so that
// validation can report non-finite numbers the way the reference does. Types
// it does not know are encoded with encoding/json and parsed.
func fromGo(v any) (*jval, error) {
	switch t := v.(type) {
	case nil:
		return &jval{kind: jNull}, nil
	case *jval:
		return t, nil
	case bool:
		return &jval{kind: jBool, b: t}, nil
	case string:
		return &jval{kind: jString, str: t}, nil
	case float64:
		return &jval{kind: jNumber, num: t}, nil
	case float32:
		return &jval{kind: jNumber, num: float64(t)}, nil
	case int:
		return &jval{kind: jNumber, num: float64(t)}, nil
	case int64:
		return &jval{kind: jNumber, num: float64(t)}, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, errNotLossless
		}
		return &jval{kind: jNumber, num: f}, nil
	case json.RawMessage:
		return parseJSON(t)
	case []any:
		out := &jval{kind: jArray, arr: make([]*jval, 0, len(t))}
		for _, item := range t {
			c, err := fromGo(item)
			if err != nil {
				return nil, err
			}
			out.arr = append(out.arr, c)
		}
		return out, nil
	case map[string]any:
		out := &jval{kind: jObject, obj: make(map[string]*jval, len(t))}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c, err := fromGo(t[k])
			if err != nil {
				return nil, err
			}
			out.keys = append(out.keys, k)
			out.obj[k] = c
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return parseJSON(data)
}

// isJSONNumber reports a finite number that is not negative zero.
func isJSONNumber(v *jval) bool {
	return v.kind == jNumber && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && !(v.num == 0 && math.Signbit(v.num))
}

// scalarEqual is JavaScript's SameValueZero on JSON scalars (Array#includes).
func scalarEqual(a, b *jval) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case jNull:
		return true
	case jBool:
		return a.b == b.b
	case jString:
		return a.str == b.str
	case jNumber:
		if math.IsNaN(a.num) && math.IsNaN(b.num) {
			return true
		}
		return a.num == b.num
	}
	return false
}

// jsStringify renders v as JavaScript's JSON.stringify would (no spaces).
func jsStringify(v *jval) string {
	var sb strings.Builder
	writeJS(&sb, v)
	return sb.String()
}

func writeJS(sb *strings.Builder, v *jval) {
	switch v.kind {
	case jNull:
		sb.WriteString("null")
	case jBool:
		if v.b {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case jNumber:
		if math.IsInf(v.num, 0) || math.IsNaN(v.num) {
			sb.WriteString("null")
		} else {
			sb.WriteString(jsNumber(v.num))
		}
	case jString:
		writeJSString(sb, v.str)
	case jArray:
		sb.WriteByte('[')
		for i, item := range v.arr {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeJS(sb, item)
		}
		sb.WriteByte(']')
	case jObject:
		sb.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeJSString(sb, k)
			sb.WriteByte(':')
			writeJS(sb, v.obj[k])
		}
		sb.WriteByte('}')
	}
}

const hexDigits = "0123456789abcdef"

func writeJSString(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if r < 0x20 {
				sb.WriteString(`\u00`)
				sb.WriteByte(hexDigits[r>>4])
				sb.WriteByte(hexDigits[r&0xf])
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
}

// jsNumber formats a finite float64 as JavaScript's Number#toString does.
func jsNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	neg := f < 0
	if neg {
		f = -f
	}
	// Shortest round-trip digits and the decimal exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	n := exp + 1 // position of the decimal point relative to digits
	k := len(digits)
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		x := n - 1
		if x < 0 {
			x = -x
		}
		if k == 1 {
			out = digits + "e" + sign + strconv.Itoa(x)
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(x)
		}
	}
	if neg {
		return "-" + out
	}
	return out
}
