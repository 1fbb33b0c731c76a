package argcheck

import (
	"bytes"
	"cmp"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// TextError is Snapshot's refusal of arguments holding a string (or an
// object key) that is not valid UTF-8 text: invalid UTF-8 bytes, or an
// escaped UTF-16 surrogate without its pair. Decoding either yields U+FFFD in
// its place, so a tool would act on different text than the caller sent.
type TextError struct {
	path string // the value's property path ("" the root)
	key  bool   // the offender is a key of the object at path
	what string
}

const invalidUTF8Bytes = "invalid UTF-8 bytes"

// Error returns `tool execution arguments must be valid UTF-8 text: "<path>" holds <what>`
// (`a key of "<path>"` for a key).
func (e *TextError) Error() string {
	where := pathName(e.path)
	if e.key {
		where = "a key of " + where
	}
	return "tool execution arguments must be valid UTF-8 text: " + where + " holds " + e.what
}

// findArgsText returns a *TextError for the first string or key of the JSON
// text data (valid JSON) that is not valid UTF-8 text, else nil: it walks the
// tokens of data, tracking each value's property path, and checks every string
// literal as written. Snapshot calls it only when its parse saw such a string.
func findArgsText(data []byte) error {
	type frame struct {
		path    string
		obj     bool
		wantKey bool
		key     string
		idx     int
	}
	var stack []frame
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF: data is valid JSON, parsed before
		}
		raw := data[prev:dec.InputOffset()] // the token, after any separator and space
		prev = dec.InputOffset()
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		path := ""
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			switch {
			case top.wantKey:
				top.key, top.wantKey = tok.(string), false
				if what := literalProblem(raw); what != "" {
					return &TextError{path: top.path, key: true, what: what}
				}
				continue
			case top.obj:
				path, top.wantKey = propertyPath(top.path, top.key), true
			default:
				path = top.path + "[" + itoa(top.idx) + "]"
				top.idx++
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			stack = append(stack, frame{path: path, obj: t == '{', wantKey: t == '{'})
		case string:
			if what := literalProblem(raw); what != "" {
				return &TextError{path: path, what: what}
			}
		}
	}
}

// literalProblem checks the string literal at the end of raw as written:
// "" when it is valid UTF-8 text.
func literalProblem(raw []byte) string {
	lit := raw[bytes.IndexByte(raw, '"'):]
	if !utf8.Valid(lit) {
		return invalidUTF8Bytes
	}
	hex := func(b []byte) rune {
		r, _ := strconv.ParseUint(string(b), 16, 32)
		return rune(r)
	}
	for i := 1; i < len(lit)-1; i++ {
		if lit[i] != '\\' {
			continue
		}
		i++
		if lit[i] != 'u' {
			continue
		}
		r := hex(lit[i+1 : i+5])
		i += 4
		if !utf16.IsSurrogate(r) {
			continue
		}
		if r < 0xDC00 && i+7 < len(lit) && lit[i+1] == '\\' && lit[i+2] == 'u' {
			if r2 := hex(lit[i+3 : i+7]); r2 >= 0xDC00 && r2 <= 0xDFFF {
				i += 6
				continue
			}
		}
		return `the unpaired surrogate \u` + string(lit[i-3:i+1])
	}
	return ""
}

// checkGoArgsText is findArgsText for arguments given as a Go value, before
// encoding/json (which replaces invalid UTF-8 in a Go string) encodes them:
// every string and string map key reachable through pointers, interfaces,
// slices, arrays, maps (in key order) and exported struct fields. A value
// with its own marshaler is left to the check of the JSON it produces.
func checkGoArgsText(v reflect.Value, path string, depth int) error {
	if !v.IsValid() || depth > maxWalkDepth || hasMarshaler(v.Type()) {
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			return &TextError{path: path, what: invalidUTF8Bytes}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return checkGoArgsText(v.Elem(), path, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // base64 text
		}
		for i := range v.Len() {
			if err := checkGoArgsText(v.Index(i), path+"["+itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		if v.Type().Key().Kind() == reflect.String {
			slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		}
		for _, k := range keys {
			name := k.String()
			if k.Kind() == reflect.String && !utf8.ValidString(name) {
				return &TextError{path: path, key: true, what: invalidUTF8Bytes}
			}
			if err := checkGoArgsText(v.MapIndex(k), propertyPath(path, name), depth+1); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" || !sf.IsExported() && !sf.Anonymous {
				continue
			}
			fieldPath := path // an embedded struct's fields are the parent's
			if !sf.Anonymous {
				fieldPath = propertyPath(path, cmp.Or(name, sf.Name))
			}
			if err := checkGoArgsText(v.Field(i), fieldPath, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxWalkDepth bounds checkGoArgsText's walk of a Go value (deeper values are left to
// encoding/json's own cycle detection).
const maxWalkDepth = 512

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// hasMarshaler reports a type that encodes itself.
func hasMarshaler(t reflect.Type) bool {
	for _, m := range []reflect.Type{jsonMarshalerType, textMarshalerType} {
		if t.Implements(m) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(m)) {
			return true
		}
	}
	return false
}
