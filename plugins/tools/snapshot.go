package tools

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// snapshotValue returns the JSON value a tool's Go value stands for: exactly
// parseJSON(json.Marshal(value)), or the error of that round trip (a
// *json.MarshalerError from a hostile marshaler, any other marshal error, or
// errNotLossless from the parse).
//
// The round trip costs time in proportion to the value's string bytes (two
// copies with escaping, then a re-parse), so values built only of plain Go
// shapes are walked directly instead (see walkValue): strings are referenced,
// not copied, and checked for valid UTF-8 in bulk. Anything the walk does not
// model byte for byte (marshalers, []byte, embedded fields, json tag options
// other than omitempty, non-string map keys, non-finite numbers, negative
// zero, deep nesting) takes the round trip for the whole value, so errors and
// edge cases keep encoding/json's exact behavior.
func snapshotValue(value any) (*jval, error) {
	if v, err := walkValue(reflect.ValueOf(value), 0); err == nil {
		return v, nil
	}
	data, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	return parseJSON(data)
}

// errWalkFallback makes snapshotValue take the marshal round trip.
var errWalkFallback = errors.New("tools: value needs the encoding/json round trip")

// maxWalkDepth is where the direct walk gives up, well inside encoding/json's
// cycle detection and parseJSON's maxDepth, both of which the round trip then
// applies.
const maxWalkDepth = 512

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonNumberType    = reflect.TypeFor[json.Number]()
)

// walkValue converts v as encoding/json would encode it and parseJSON would
// read it back, or returns errWalkFallback for anything outside the plain
// shapes it models.
func walkValue(v reflect.Value, depth int) (*jval, error) {
	if !v.IsValid() {
		return &jval{kind: jNull}, nil
	}
	if depth > maxWalkDepth {
		return nil, errWalkFallback
	}
	info := typeInfoOf(v.Type())
	if !info.plain {
		return nil, errWalkFallback
	}
	switch v.Kind() {
	case reflect.Bool:
		return &jval{kind: jBool, b: v.Bool()}, nil
	case reflect.String:
		return &jval{kind: jString, str: validString(v.String())}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &jval{kind: jNumber, num: float64(v.Int())}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &jval{kind: jNumber, num: float64(v.Uint())}, nil
	case reflect.Float32, reflect.Float64:
		return walkFloat(v)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return &jval{kind: jNull}, nil
		}
		return walkValue(v.Elem(), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			return &jval{kind: jNull}, nil
		}
		return walkArray(v, depth)
	case reflect.Array:
		return walkArray(v, depth)
	case reflect.Map:
		if v.IsNil() {
			return &jval{kind: jNull}, nil
		}
		return walkMap(v, depth)
	case reflect.Struct:
		return walkStruct(v, info.fields, depth)
	}
	return nil, errWalkFallback
}

// walkFloat accepts only what survives the round trip (see snapshotFloat).
func walkFloat(v reflect.Value) (*jval, error) {
	f, err := snapshotFloat(v)
	if err != nil {
		return nil, err
	}
	return &jval{kind: jNumber, num: f}, nil
}

// snapshotFloat is the number a float reads back as, or errWalkFallback when
// it does not survive the round trip: it must be finite and not negative
// zero. A float32 is read back from its 32-bit shortest form, as
// encoding/json writes it.
func snapshotFloat(v reflect.Value) (float64, error) {
	f := v.Float()
	if math.IsInf(f, 0) || math.IsNaN(f) || (f == 0 && math.Signbit(f)) {
		return 0, errWalkFallback
	}
	if v.Kind() == reflect.Float32 {
		back, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
		if err != nil {
			return 0, errWalkFallback
		}
		f = back
	}
	return f, nil
}

func walkArray(v reflect.Value, depth int) (*jval, error) {
	out := &jval{kind: jArray, arr: make([]*jval, 0, v.Len())}
	for i := range v.Len() {
		item, err := walkValue(v.Index(i), depth+1)
		if err != nil {
			return nil, err
		}
		out.arr = append(out.arr, item)
	}
	return out, nil
}

// walkMap emits the keys sorted as encoding/json does; keys that collide once
// invalid UTF-8 is replaced keep their first position and their last value,
// as parseJSON does.
func walkMap(v reflect.Value, depth int) (*jval, error) {
	keys := make([]string, 0, v.Len())
	values := make(map[string]reflect.Value, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key().String()
		keys = append(keys, k)
		values[k] = it.Value()
	}
	slices.Sort(keys)
	out := &jval{kind: jObject, obj: make(map[string]*jval, len(keys))}
	for _, k := range keys {
		item, err := walkValue(values[k], depth+1)
		if err != nil {
			return nil, err
		}
		out.set(validString(k), item)
	}
	return out, nil
}

func walkStruct(v reflect.Value, fields []walkField, depth int) (*jval, error) {
	out := &jval{kind: jObject, obj: make(map[string]*jval, len(fields))}
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyJSON(fv) {
			continue
		}
		item, err := walkValue(fv, depth+1)
		if err != nil {
			return nil, err
		}
		out.set(f.name, item)
	}
	return out, nil
}

// set adds a member the way parseJSON does: first position, last value.
func (v *jval) set(key string, item *jval) {
	if _, seen := v.obj[key]; !seen {
		v.keys = append(v.keys, key)
	}
	v.obj[key] = item
}

// isEmptyJSON is encoding/json's omitempty test for the kinds the walk models.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// validString is s as it reads back after encoding/json replaced each invalid
// UTF-8 byte with U+FFFD; a valid string is returned as is, not copied.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return fixUTF8(s)
}

// walkTypeInfo is what the walk knows of one type: whether encoding/json
// encodes its values by their kind alone (plain) and, for a struct, the
// members it emits in order.
type walkTypeInfo struct {
	plain  bool
	fields []walkField
}

type walkField struct {
	index     int
	name      string
	omitEmpty bool
}

var walkTypes sync.Map // reflect.Type -> *walkTypeInfo

func typeInfoOf(t reflect.Type) *walkTypeInfo {
	if info, ok := walkTypes.Load(t); ok {
		return info.(*walkTypeInfo)
	}
	info, _ := walkTypes.LoadOrStore(t, newTypeInfo(t))
	return info.(*walkTypeInfo)
}

// newTypeInfo classifies t. Only t itself is examined: element and field
// types are classified when the walk reaches a value of them.
func newTypeInfo(t reflect.Type) *walkTypeInfo {
	notPlain := &walkTypeInfo{}
	if t == jsonNumberType || hasMarshaler(t) {
		return notPlain
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Pointer, reflect.Interface, reflect.Array:
		return &walkTypeInfo{plain: true}
	case reflect.Slice:
		// []byte-like slices are base64 text.
		return &walkTypeInfo{plain: t.Elem().Kind() != reflect.Uint8}
	case reflect.Map:
		return &walkTypeInfo{plain: t.Key().Kind() == reflect.String && !hasMarshaler(t.Key())}
	case reflect.Struct:
		fields, ok := structFields(t)
		return &walkTypeInfo{plain: ok, fields: fields}
	}
	return notPlain
}

// hasMarshaler reports a type whose encoding a method may decide, on the value
// or (when addressable) on its pointer.
func hasMarshaler(t reflect.Type) bool {
	for _, m := range []reflect.Type{jsonMarshalerType, textMarshalerType} {
		if t.Implements(m) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(m)) {
			return true
		}
	}
	return false
}

// structFields lists the members encoding/json emits for t, in order, when
// they follow from the plain rules alone: exported fields, a json tag's name
// (or the field's name) and omitempty, "-" to skip. Embedded fields, the
// string and omitzero options, unusual tag names and duplicate names are not
// modeled (ok false).
func structFields(t reflect.Type) (fields []walkField, ok bool) {
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, false
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		f := walkField{index: i, name: sf.Name}
		if name != "" {
			if !plainTagName(name) {
				return nil, false
			}
			f.name = name
		}
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "", "omitempty":
				f.omitEmpty = f.omitEmpty || opt == "omitempty"
			default:
				return nil, false
			}
		}
		if seen[f.name] {
			return nil, false
		}
		seen[f.name] = true
		fields = append(fields, f)
	}
	return fields, true
}

// plainTagName accepts the ASCII tag names encoding/json takes as they are.
func plainTagName(name string) bool {
	for i := range len(name) {
		c := name[i]
		isAlnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !isAlnum && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", rune(c)) {
			return false
		}
	}
	return true
}
