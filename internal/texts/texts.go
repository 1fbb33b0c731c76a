// Package texts holds a tool's model-facing texts, read from one file per plugin (docs/texts.md),
// and the JavaScript text rules those texts and the argument checks follow.
//
// A file is a JSON object of keys to templates. A template is literal text with placeholders
// `{name}` (a name is a letter or '_' followed by letters, digits and '_'); a '{' that does not
// open such a placeholder is literal. The Go code renders from the file it embeds; its tests and
// the e2e scripts read and render the same file, so a text is written once.
//
// The JavaScript rules are which characters String.prototype.trim removes (Space, Trim, IsBlank),
// which numbers Number.isInteger accepts (IsInteger), how Number#toString spells a number (Number)
// and how JSON.stringify quotes a string (Quote): one copy, used wherever a model-facing text or
// check follows them.
//
//	if texts.IsBlank(args.FilePath) {
//		return errors.New("file_path must be a non-empty string")
//	}
package texts

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Set is the parsed texts of one file.
type Set struct {
	name string
	raw  map[string]string
}

// Parse reads a texts file (name is for messages): a JSON object of strings.
func Parse(name string, b []byte) (Set, error) {
	var raw map[string]string
	if err := json.Unmarshal(b, &raw); err != nil {
		return Set{}, fmt.Errorf("texts %s: %w", name, err)
	}
	return Set{name: name, raw: raw}, nil
}

// MustParse is Parse for an embedded file: a malformed file is a build mistake, so it panics.
func MustParse(name string, b []byte) Set {
	s, err := Parse(name, b)
	if err != nil {
		panic(err)
	}
	return s
}

// Load reads and parses a texts file from disk: a test reads the file its code embeds, as the e2e
// scripts do.
func Load(path string) (Set, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Set{}, err
	}
	return Parse(path, b)
}

// MustLoad is Load for a test: a missing or malformed file panics.
func MustLoad(path string) Set {
	s, err := Load(path)
	if err != nil {
		panic(err)
	}
	return s
}

// Keys are the set's keys, sorted.
func (s Set) Keys() []string {
	keys := make([]string, 0, len(s.raw))
	for k := range s.raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Raw is the template of key as the file writes it; it panics on a key the file lacks.
func (s Set) Raw(key string) string {
	t, ok := s.raw[key]
	if !ok {
		panic(fmt.Sprintf("texts %s: no text %q", s.name, key))
	}
	return t
}

// Text is the text of key, which must have no placeholder.
func (s Set) Text(key string) string { return s.Template(key).Render() }

// Template compiles the template of key with its placeholders bound, in order, to names: the
// values of Render and Append come in that order. A placeholder the template uses that names
// does not list, or a key the file lacks, is a build mistake: it panics. A name the template does
// not use is allowed (the text may leave a value out).
func (s Set) Template(key string, names ...string) Template {
	t, err := compile(s.Raw(key), names)
	if err != nil {
		panic(fmt.Sprintf("texts %s: %q: %v", s.name, key, err))
	}
	return t
}

// Render renders key with values given as name, value pairs: the slow, checked path for tests and
// cold code. A placeholder without a value, or a value no placeholder takes, is an error.
func (s Set) Render(key string, pairs ...string) (string, error) {
	if len(pairs)%2 != 0 {
		return "", fmt.Errorf("texts %s: %q: odd name/value pairs", s.name, key)
	}
	raw, ok := s.raw[key]
	if !ok {
		return "", fmt.Errorf("texts %s: no text %q", s.name, key)
	}
	names := make([]string, 0, len(pairs)/2)
	values := make([]string, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		names, values = append(names, pairs[i]), append(values, pairs[i+1])
	}
	t, err := compile(raw, names)
	if err != nil {
		return "", fmt.Errorf("texts %s: %q: %w", s.name, key, err)
	}
	for i, n := range names {
		if !slices.ContainsFunc(t.parts, func(p part) bool { return p.arg == i }) {
			return "", fmt.Errorf("texts %s: %q: no placeholder {%s}", s.name, key, n)
		}
	}
	return t.Render(values...), nil
}

// MustRender is Render for a test: a mistake (a missing key or value, a value no placeholder
// takes) panics.
func (s Set) MustRender(key string, pairs ...string) string {
	out, err := s.Render(key, pairs...)
	if err != nil {
		panic(err)
	}
	return out
}

// Template is a compiled text: literal parts and placeholders bound to argument positions.
type Template struct {
	parts []part
	fixed int // bytes of the literal parts
}

// part is a literal (arg < 0) or the argument at position arg.
type part struct {
	lit string
	arg int
}

// compile splits raw into literal parts and placeholders bound to names.
func compile(raw string, names []string) (Template, error) {
	var t Template
	lit := 0 // start of the pending literal
	for i := 0; i < len(raw); i++ {
		if raw[i] != '{' {
			continue
		}
		n := placeholder(raw[i+1:])
		if n == 0 {
			continue
		}
		name := raw[i+1 : i+1+n]
		arg := slices.Index(names, name)
		if arg < 0 {
			return Template{}, fmt.Errorf("placeholder {%s} is not among %q", name, names)
		}
		if lit < i {
			t.parts = append(t.parts, part{lit: raw[lit:i], arg: -1})
			t.fixed += i - lit
		}
		t.parts = append(t.parts, part{arg: arg})
		i += n + 1
		lit = i + 1
	}
	if lit < len(raw) {
		t.parts = append(t.parts, part{lit: raw[lit:], arg: -1})
		t.fixed += len(raw) - lit
	}
	return t, nil
}

// placeholder is the length of the name of a placeholder that s (after a '{') opens, or 0.
func placeholder(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '}':
			return i
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return 0
		}
	}
	return 0
}

// Render renders the template with values in the order of its names.
func (t Template) Render(values ...string) string {
	if len(t.parts) == 1 && t.parts[0].arg < 0 {
		return t.parts[0].lit
	}
	n := t.fixed
	for _, p := range t.parts {
		if p.arg >= 0 {
			n += len(values[p.arg])
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range t.parts {
		if p.arg < 0 {
			b.WriteString(p.lit)
		} else {
			b.WriteString(values[p.arg])
		}
	}
	return b.String()
}

// Append appends the template rendered with values to b.
func (t Template) Append(b []byte, values ...string) []byte {
	for _, p := range t.parts {
		if p.arg < 0 {
			b = append(b, p.lit...)
		} else {
			b = append(b, values[p.arg]...)
		}
	}
	return b
}

// AppendInts appends the template rendered with decimal integers to b.
func (t Template) AppendInts(b []byte, values ...int) []byte {
	for _, p := range t.parts {
		if p.arg < 0 {
			b = append(b, p.lit...)
		} else {
			b = strconv.AppendInt(b, int64(values[p.arg]), 10)
		}
	}
	return b
}

// RenderInts renders the template with decimal integers.
func (t Template) RenderInts(values ...int) string {
	var buf [128]byte
	return string(t.AppendInts(buf[:0], values...))
}

// LenInts is the length of the template rendered with decimal integers, found by rendering it
// (on the stack when it is short).
func (t Template) LenInts(values ...int) int {
	var buf [128]byte
	return len(t.AppendInts(buf[:0], values...))
}
