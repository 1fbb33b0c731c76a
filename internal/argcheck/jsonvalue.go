package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/texts"
)

// jkind is the JSON type of a Value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// Value is a parsed JSON value (Parse, Snapshot) that keeps object key order
// (first occurrence, last value wins, as JSON.parse does); numbers are float64.
type Value struct {
	kind jkind
	b    bool
	num  float64
	str  string
	arr  []*Value
	keys []string
	obj  map[string]*Value
	raw  []byte // the text it was parsed from (Parse, Snapshot: a part of the snapshot); nil from a Go value
}

// ErrNotLossless reports JSON that does not survive a lossless round trip:
// invalid text, a non-finite number, or negative zero.
var ErrNotLossless = errors.New("not lossless JSON")

// Snapshot turns caller-supplied arguments into compact, lossless JSON text
// and its parsed Value, parsed from that text (see Value.Decode):
// json.RawMessage and []byte are taken as JSON text (copied once, so the
// snapshot is the call's own whatever the caller does with its buffer later,
// and returned as that copy when already compact); anything else is encoded with
// encoding/json. nil and text that is not lossless fail with ErrNotLossless
// (undefined arguments are refused), a Go value encoding/json cannot encode
// with its error, and a string or key that is not valid UTF-8 text with a
// *TextError (checkGoArgsText before encoding a Go value; on the JSON text,
// the parse notes such a string and findArgsText names the first). The text
// is walked once, by the parse, unless it is refused or has whitespace to
// remove.
func Snapshot(args any) (json.RawMessage, *Value, error) {
	var data []byte
	compact := false // encoding/json's output is compact already
	switch a := args.(type) {
	case nil:
		return nil, nil, ErrNotLossless
	case json.RawMessage:
		data = bytes.Clone(a)
	case []byte:
		data = bytes.Clone(a)
	default:
		rv := reflect.ValueOf(args)
		if (rv.Kind() == reflect.Map || rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Slice) && rv.IsNil() {
			return nil, nil, ErrNotLossless
		}
		if err := checkGoArgsText(rv, "", 0); err != nil {
			return nil, nil, err
		}
		enc, err := json.Marshal(args)
		if err != nil {
			return nil, nil, err
		}
		data, compact = enc, true
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, ErrNotLossless
	}
	p := parser{data: data}
	v, err := p.parse()
	if err != nil {
		return nil, nil, err
	}
	if p.badText {
		if err := findArgsText(data); err != nil {
			return nil, nil, err
		}
	}
	if compact || !p.spaced {
		return json.RawMessage(data), v, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, nil, ErrNotLossless
	}
	p = parser{data: buf.Bytes()} // the Value's texts are parts of the compact text
	if v, err = p.parse(); err != nil {
		return nil, nil, ErrNotLossless
	}
	return json.RawMessage(p.data), v, nil
}

// fromGo converts a Go value into a Value without the lossless gate, so that
// validation can report non-finite numbers as JavaScript does. Types
// it does not know are encoded with encoding/json and parsed.
func fromGo(v any) (*Value, error) {
	switch t := v.(type) {
	case nil:
		return &Value{kind: jNull}, nil
	case bool:
		return &Value{kind: jBool, b: t}, nil
	case string:
		return &Value{kind: jString, str: t}, nil
	case float64:
		return &Value{kind: jNumber, num: t}, nil
	case float32:
		return &Value{kind: jNumber, num: float64(t)}, nil
	case int:
		return &Value{kind: jNumber, num: float64(t)}, nil
	case int64:
		return &Value{kind: jNumber, num: float64(t)}, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, ErrNotLossless
		}
		return &Value{kind: jNumber, num: f}, nil
	case json.RawMessage:
		return Parse(t)
	case []any:
		out := &Value{kind: jArray, arr: make([]*Value, 0, len(t))}
		for _, item := range t {
			c, err := fromGo(item)
			if err != nil {
				return nil, err
			}
			out.arr = append(out.arr, c)
		}
		return out, nil
	case map[string]any:
		out := &Value{kind: jObject, obj: make(map[string]*Value, len(t))}
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
	return Parse(data)
}

// isJSONNumber reports a finite number that is not negative zero.
func isJSONNumber(v *Value) bool {
	return v.kind == jNumber && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && !(v.num == 0 && math.Signbit(v.num))
}

// scalarEqual is JavaScript's SameValueZero on JSON scalars (Array#includes).
func scalarEqual(a, b *Value) bool {
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
func jsStringify(v *Value) string {
	var sb strings.Builder
	writeJS(&sb, v)
	return sb.String()
}

func writeJS(sb *strings.Builder, v *Value) {
	writeJSWith(sb, v, func(sb *strings.Builder, _ string, item *Value) { writeJS(sb, item) })
}

// writeJSWith is writeJS with each item of an array (key "") and member of an object written by
// child.
func writeJSWith(sb *strings.Builder, v *Value, child func(sb *strings.Builder, key string, item *Value)) {
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
			sb.WriteString(texts.Number(v.num))
		}
	case jString:
		sb.WriteString(texts.Quote(v.str))
	case jArray:
		sb.WriteByte('[')
		for i, item := range v.arr {
			if i > 0 {
				sb.WriteByte(',')
			}
			child(sb, "", item)
		}
		sb.WriteByte(']')
	case jObject:
		sb.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(texts.Quote(k))
			sb.WriteByte(':')
			child(sb, k, v.obj[k])
		}
		sb.WriteByte('}')
	}
}
