package argcheck

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"sync"
)

// IsObject reports a JSON object.
func (v *Value) IsObject() bool { return v.kind == jObject }

// IsNull reports JSON null.
func (v *Value) IsNull() bool { return v.kind == jNull }

// Member returns the value of key in the object v, matched exactly (the last of duplicate keys);
// ok is false when v is not an object or has no such key.
func (v *Value) Member(key string) (m *Value, ok bool) {
	m, ok = v.obj[key]
	return m, ok
}

// Decode stores v in dst (addressable) as json.Unmarshal of the text v was parsed from into
// dst.Addr().Interface() does, errors included: a string, bool, float64 or int (a number written
// as an integer of less than 2^53 in magnitude), a pointer to one of them, a []string and a
// json.RawMessage are set from v, anything else (or a value of another JSON type, which
// json.Unmarshal refuses or treats in its own way) is decoded from the text. v must come from
// Parse or Snapshot.
func (v *Value) Decode(dst reflect.Value) error {
	if v.setDirect(dst, shapeOf(dst.Type())) {
		return nil
	}
	return json.Unmarshal(v.raw, dst.Addr().Interface())
}

// Field is a field of a struct that DecodeMembers sets: its index and the member it is set from.
type Field struct {
	Index int
	Name  string
	shape shape
}

// FieldOf is the field of the struct type st at index, set from the member name.
func FieldOf(st reflect.Type, index int, name string) Field {
	return Field{Index: index, Name: name, shape: shapeOf(st.Field(index).Type)}
}

// DecodeMembers sets each field of the struct sv (addressable) from the member of the object v
// that its Name names, as Decode sets it, and leaves a field without a member as it is. It
// reports false, and sets nothing, when v is not an object.
func (v *Value) DecodeMembers(sv reflect.Value, fields []Field) (bool, error) {
	if v.kind != jObject {
		return false, nil
	}
	for i := range fields {
		f := &fields[i]
		m, ok := v.obj[f.Name]
		if !ok {
			continue
		}
		if dst := sv.Field(f.Index); !m.setDirect(dst, f.shape) {
			if err := json.Unmarshal(m.raw, dst.Addr().Interface()); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// setDirect sets dst, of shape sh, from v when json.Unmarshal would set it so without fail.
func (v *Value) setDirect(dst reflect.Value, sh shape) bool {
	switch sh {
	case shapeString, shapeBool, shapeFloat, shapeInt:
		if v.kind == jNull {
			return true // null leaves a scalar as it is
		}
		return v.setScalar(dst, sh)
	case shapePointer:
		if v.kind == jNull {
			dst.SetZero()
			return true
		}
		elem := dst.Type().Elem()
		if !v.fits(shapeOf(elem)) {
			return false
		}
		if dst.IsNil() {
			dst.Set(reflect.New(elem))
		}
		return v.setScalar(dst.Elem(), shapeOf(elem))
	case shapeRaw:
		dst.SetBytes(append(dst.Bytes()[:0], v.raw...))
		return true
	case shapeStrings:
		if v.kind == jNull {
			dst.SetZero()
			return true
		}
		if v.kind != jArray || !dst.IsNil() {
			return false
		}
		for _, item := range v.arr {
			if item.kind != jString {
				return false
			}
		}
		s := reflect.MakeSlice(dst.Type(), len(v.arr), len(v.arr))
		for i, item := range v.arr {
			s.Index(i).SetString(item.str)
		}
		dst.Set(s)
		return true
	}
	return false
}

// fits reports a value setScalar sets into a scalar of shape sh.
func (v *Value) fits(sh shape) bool {
	switch sh {
	case shapeString:
		return v.kind == jString
	case shapeBool:
		return v.kind == jBool
	case shapeFloat:
		return v.kind == jNumber
	case shapeInt:
		return v.kind == jNumber && integerText(v.raw) && math.Abs(v.num) < 1<<53 // below 2^53, the text is the float64
	}
	return false
}

func (v *Value) setScalar(dst reflect.Value, sh shape) bool {
	if !v.fits(sh) {
		return false
	}
	switch sh {
	case shapeString:
		dst.SetString(v.str)
	case shapeBool:
		dst.SetBool(v.b)
	case shapeFloat:
		dst.SetFloat(v.num) // the text parsed as json.Unmarshal parses it (strconv.ParseFloat, 64 bits)
	case shapeInt:
		if dst.OverflowInt(int64(v.num)) {
			return false
		}
		dst.SetInt(int64(v.num))
	}
	return true
}

// integerText reports a number written without a fraction or an exponent.
func integerText(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// shape is how Decode treats a Go type.
type shape uint8

const (
	shapeOther   shape = iota // decoded from the text
	shapeString               // a string kind (not json.Number)
	shapeBool                 // a bool kind
	shapeFloat                // a float64 kind
	shapeInt                  // a signed integer kind
	shapePointer              // a pointer to a string, bool, float64 or int shape
	shapeRaw                  // json.RawMessage
	shapeStrings              // a slice of a string shape
)

var shapes sync.Map // reflect.Type -> shape

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	numberType        = reflect.TypeFor[json.Number]()
	unmarshalerType   = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func shapeOf(t reflect.Type) shape {
	if s, ok := shapes.Load(t); ok {
		return s.(shape)
	}
	s := classify(t)
	shapes.Store(t, s)
	return s
}

func classify(t reflect.Type) shape {
	if t == rawMessageType {
		return shapeRaw
	}
	if t == numberType || t.Implements(unmarshalerType) || t.Implements(textUnmarshalType) ||
		reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalType) {
		return shapeOther
	}
	switch t.Kind() {
	case reflect.String:
		return shapeString
	case reflect.Bool:
		return shapeBool
	case reflect.Float64:
		return shapeFloat
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return shapeInt
	case reflect.Pointer:
		if e := classify(t.Elem()); e >= shapeString && e <= shapeInt {
			return shapePointer
		}
	case reflect.Slice:
		if classify(t.Elem()) == shapeString {
			return shapeStrings
		}
	}
	return shapeOther
}
