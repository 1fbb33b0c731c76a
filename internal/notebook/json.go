package notebook

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is a JSON value as Python's json.loads reads it, with the byte span it came from. A
// Number keeps its literal (Str); a Bool keeps "true" or "false"; a String holds the decoded
// text; an Object keeps its members in file order, duplicates included (the last one counts,
// as in a Python dict).
type Value struct {
	Kind       Kind
	Str        string
	Arr        []*Value
	Obj        []Member
	Start, End int // the value's bytes in the parsed text
}

// Member is one key and value of an object.
type Member struct {
	Key string
	Val *Value
}

// Get returns the value of key (the last member of that name), or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Obj) - 1; i >= 0; i-- {
		if v.Obj[i].Key == key {
			return v.Obj[i].Val
		}
	}
	return nil
}

// SyntaxError is a text that is not JSON as Python's json module reads it: what is wrong and
// where (1-based line and column in code points, as Python counts them).
type SyntaxError struct {
	Msg          string
	Offset       int
	Line, Column int
}

func (e *SyntaxError) Error() string {
	return e.Msg + " at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

// maxDepth bounds the nesting of a parsed value (Python's own recursion limit is about 1000).
const maxDepth = 1000

type parser struct {
	s     string
	i     int
	depth int
}

// ParseJSON parses s as one JSON value, as Python's json.loads does: JSON, plus the literals
// NaN, Infinity and -Infinity; raw control characters inside strings are refused.
func ParseJSON(s string) (*Value, error) {
	p := &parser{s: s}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(s) {
		return nil, p.fail("Extra data")
	}
	return v, nil
}

func (p *parser) fail(msg string) error {
	line := 1 + strings.Count(p.s[:p.i], "\n")
	col := 1 + utf8.RuneCountInString(p.s[strings.LastIndexByte(p.s[:p.i], '\n')+1:p.i])
	return &SyntaxError{Msg: msg, Offset: p.i, Line: line, Column: col}
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (*Value, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("Expecting value")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		str, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Str: str, Start: start, End: p.i}, nil
	case c == 't' && strings.HasPrefix(p.s[p.i:], "true"), c == 'f' && strings.HasPrefix(p.s[p.i:], "false"):
		lit := "true"
		if c == 'f' {
			lit = "false"
		}
		p.i += len(lit)
		return &Value{Kind: Bool, Str: lit, Start: start, End: p.i}, nil
	case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &Value{Kind: Null, Start: start, End: p.i}, nil
	case c == 'N' && strings.HasPrefix(p.s[p.i:], "NaN"):
		p.i += 3
		return &Value{Kind: Number, Str: "NaN", Start: start, End: p.i}, nil
	case c == 'I' && strings.HasPrefix(p.s[p.i:], "Infinity"):
		p.i += 8
		return &Value{Kind: Number, Str: "Infinity", Start: start, End: p.i}, nil
	case c == '-' && strings.HasPrefix(p.s[p.i:], "-Infinity"):
		p.i += 9
		return &Value{Kind: Number, Str: "-Infinity", Start: start, End: p.i}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, p.fail("Expecting value")
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.fail("Nested too deeply")
	}
	return nil
}

func (p *parser) object() (*Value, error) {
	v := &Value{Kind: Object, Start: p.i}
	err := p.container(v, '}', func() error {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.fail("Expecting property name enclosed in double quotes")
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.fail("Expecting ':' delimiter")
		}
		p.i++
		p.space()
		val, err := p.value()
		if err != nil {
			return err
		}
		v.Obj = append(v.Obj, Member{Key: key, Val: val})
		return nil
	})
	return v, err
}

func (p *parser) array() (*Value, error) {
	v := &Value{Kind: Array, Start: p.i}
	err := p.container(v, ']', func() error {
		el, err := p.value()
		if err == nil {
			v.Arr = append(v.Arr, el)
		}
		return err
	})
	return v, err
}

// container reads the elements of an object or array whose opening bracket is at p.i, each
// with elem, separated by commas, up to close; it sets v.End.
func (p *parser) container(v *Value, close byte, elem func() error) error {
	if err := p.enter(); err != nil {
		return err
	}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == close {
		p.i++
		v.End = p.i
		p.depth--
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			v.End = p.i
			p.depth--
			return nil
		}
		return p.fail("Expecting ',' delimiter")
	}
}

func (p *parser) number() (*Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case digits() == 0:
		p.i = start
		return nil, p.fail("Expecting value")
	}
	// A fraction or exponent without digits ends the number before it (Python's NUMBER_RE).
	if p.i+1 < len(p.s) && p.s[p.i] == '.' && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
		p.i++
		digits()
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		save := p.i
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = save
		}
	}
	return &Value{Kind: Number, Str: p.s[start:p.i], Start: start, End: p.i}, nil
}

// str reads a string whose opening quote is at p.i and returns its decoded text. A lone
// surrogate escape decodes to U+FFFD (Go strings hold UTF-8).
func (p *parser) str() (string, error) {
	p.i++
	start := p.i
	// Fast path: no escape.
	for j := p.i; j < len(p.s); j++ {
		c := p.s[j]
		if c == '"' {
			p.i = j + 1
			return p.s[start:j], nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.i = j
			return "", p.fail("Invalid control character")
		}
	}
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.i = start - 1
			return "", p.fail("Unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("Invalid control character")
		case c != '\\':
			j := p.i
			for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' && p.s[j] >= 0x20 {
				j++
			}
			b.WriteString(p.s[p.i:j])
			p.i = j
			continue
		}
		if p.i+1 >= len(p.s) {
			p.i = start - 1
			return "", p.fail("Unterminated string")
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) && r < 0xDC00 && strings.HasPrefix(p.s[p.i:], `\u`) {
				save := p.i
				p.i += 2
				r2, err := p.hex4()
				if err == nil && r2 >= 0xDC00 && r2 <= 0xDFFF {
					r = utf16.DecodeRune(r, r2)
				} else {
					p.i = save
				}
			}
			b.WriteRune(r) // a lone surrogate is written as U+FFFD
		default:
			p.i -= 2
			return "", p.fail("Invalid \\escape")
		}
	}
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		p.i -= 2
		return 0, p.fail("Invalid \\uXXXX escape")
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		p.i -= 2
		return 0, p.fail("Invalid \\uXXXX escape")
	}
	p.i += 4
	return rune(n), nil
}

var errNotString = errors.New("not a string")

// Text returns the text of v when it is a string or a list of strings (joined), as nbformat
// reads a multi-line field.
func Text(v *Value) (string, error) {
	if v == nil {
		return "", errNotString
	}
	switch v.Kind {
	case String:
		return v.Str, nil
	case Array:
		var b strings.Builder
		for _, el := range v.Arr {
			if el.Kind != String {
				return "", errNotString
			}
			b.WriteString(el.Str)
		}
		return b.String(), nil
	}
	return "", errNotString
}
